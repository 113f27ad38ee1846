"""The article page's gate: one read of the story's row decides whether readers may
see it, on every request, whatever is cached."""

from datetime import timedelta

import pytest
from django.utils import timezone

from articles.models import Article, Status
from publishing.views.story import public_story
from tests.factories import ArticleFactory, DraftArticleFactory

pytestmark = pytest.mark.django_db


def _read_as_the_orm_does(read: Article, stored: Article) -> None:
    loaded = {
        field.attname for field in Article._meta.concrete_fields
    } - read.get_deferred_fields()
    assert {"status", "published_at", "embargo_until", "updated_at"} <= loaded
    assert {name: getattr(read, name) for name in loaded} == {
        name: getattr(stored, name) for name in loaded
    }
    assert read.published_at.tzinfo is not None
    assert read.embargo_until.tzinfo is not None


def test_the_gate_reads_the_story_as_the_orm_does():
    """Every field the gate reads equals the ORM's value, dates aware, on every
    database (the gate reads a cached queryset: views/story.py)."""
    story = ArticleFactory(embargo_until=timezone.now() - timedelta(hours=2))
    _read_as_the_orm_does(public_story(story.pk), Article.objects.get(pk=story.pk))


def test_a_story_read_again_is_read_as_the_orm_does():
    """Read again (on PostgreSQL from the SQL the first read ran, kept: views/
    story.py), every field still equals the ORM's value, dates aware."""
    first = ArticleFactory()
    story = ArticleFactory(embargo_until=timezone.now() - timedelta(hours=2))
    assert public_story(first.pk) is not None
    _read_as_the_orm_does(public_story(story.pk), Article.objects.get(pk=story.pk))


@pytest.mark.parametrize(
    "hidden",
    [
        lambda: DraftArticleFactory(),
        lambda: ArticleFactory(published_at=timezone.now() + timedelta(hours=1)),
        lambda: ArticleFactory(embargo_until=timezone.now() + timedelta(hours=1)),
        lambda: ArticleFactory(status=Status.KILLED),
    ],
    ids=["draft", "scheduled", "embargoed", "killed"],
)
def test_the_gate_finds_nothing_readers_may_not_see(hidden):
    """Drafts, stories not yet live, embargoed and killed stories are not public."""
    assert public_story(hidden().pk) is None


@pytest.mark.parametrize("pk", [0, -1, 2**63, 10**30])
def test_the_gate_refuses_numbers_no_row_can_have(pk):
    """Out-of-range numbers answer None rather than a database error."""
    assert public_story(pk) is None
