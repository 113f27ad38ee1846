"""seed_newsroom writes a fictional archive in batches, rows as a save makes them."""

import io

import pytest
from django.core.management import CommandError, call_command
from taggit.models import TaggedItem

from articles.models import Article, ArticlePerson, Byline
from identity.models import Person
from publishing.search import search_articles
from sources.models import Attribution, Source

pytestmark = pytest.mark.django_db


def seed(**options) -> str:
    err = io.StringIO()
    call_command(
        "seed_newsroom", stdout=io.StringIO(), stderr=err, **{"batch": 40, **options}
    )
    return err.getvalue()


def test_seed_writes_the_stories_people_and_sources_asked_for():
    """100 stories, 30 people and 12 sources, in batches smaller than the total."""
    seed(stories=100, people=30, sources=12)
    assert Article.objects.count() == 100
    assert Person.objects.count() == 30
    assert Source.objects.count() == 12


def test_seeded_stories_carry_bylines_tags_people_and_credits():
    """Every story has a byline; stories name people, carry tags and credit sources."""
    seed(stories=60, people=30, sources=12)
    assert Byline.objects.values("article").distinct().count() == 60
    assert ArticlePerson.objects.exists()
    assert TaggedItem.objects.exists()
    assert Attribution.objects.exists()


def test_seeded_stories_fill_both_editions():
    """Most stories list in the Arabic edition, many in the English one too."""
    seed(stories=100, people=10, sources=5)
    arabic = Article.objects.published().available_in("ar").count()
    english = Article.objects.published().available_in("en").count()
    assert arabic > 50 and english > 20


def test_seeded_rows_match_what_a_save_derives():
    """Slugs, the folded search text and the sanitized body are as save() makes them."""
    seed(stories=20, people=10, sources=5)
    story = Article.objects.exclude(headline_ar="").first()
    derived = (story.slug_ar, story.search_text, story.headline_key, story.body_ar)
    story.save()
    story.refresh_from_db()
    assert derived == (
        story.slug_ar,
        story.search_text,
        story.headline_key,
        story.body_ar,
    )


def test_seeded_stories_are_found_by_public_search():
    """The search index is filled (the vector on PostgreSQL, folded text elsewhere)."""
    seed(stories=40, people=10, sources=5)
    story = Article.objects.published().exclude(headline_ar="").first()
    word = story.headline_ar.split()[-1]
    assert story in search_articles(word, language="ar")


def test_seed_shows_progress():
    """A progress bar reaches the total."""
    assert "30/30 stories" in seed(stories=30, people=5, sources=3)


def test_seed_refuses_a_negative_count():
    """A negative number of stories is an error, and nothing is written."""
    with pytest.raises(CommandError):
        seed(stories=-1)
    assert not Article.objects.exists()
