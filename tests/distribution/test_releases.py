"""The release log: each change of a story a partner must see is one row per
edition, written after the change commits; scheduled stories appear at their time,
after every cursor handed out before it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from articles.models import Status
from articles.services import (
    StoryEdit,
    article_kill,
    article_publish,
    article_save,
    article_unpublish,
    correction_add,
)
from core.roles import EDITORS
from distribution.models import Event, Release
from distribution.releases import visible_releases
from tests.factories import DraftArticleFactory, member_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor():
    return member_of(EDITORS)


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run what a change announces after its commit, as production does."""

    def run(change, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return change(*args, **kwargs)

    return run


def events(article) -> list[tuple[str, str, int]]:
    return list(
        Release.objects.filter(article=article)
        .order_by("pk")
        .values_list("language", "event", "version")
    )


def test_publishing_releases_each_edition(editor, commits):
    story = DraftArticleFactory(headline_en="A headline in English")
    commits(article_publish, article=story, by=editor)
    assert sorted(events(story)) == [
        ("ar", Event.PUBLISHED, story.version),
        ("en", Event.PUBLISHED, story.version),
    ]


def test_a_draft_edit_is_no_release(editor, commits):
    story = DraftArticleFactory()
    story.summary_ar = "ملخص جديد"
    commits(article_save, edit=StoryEdit(article=story), by=editor)
    assert events(story) == []


def test_an_edit_of_a_public_story_is_an_update(editor, commits):
    story = DraftArticleFactory()
    commits(article_publish, article=story, by=editor)
    story.summary_ar = "ملخص جديد"
    commits(
        article_save,
        edit=StoryEdit(article=story, base_version=story.version),
        by=editor,
    )
    assert events(story)[-1] == ("ar", Event.UPDATED, story.version)


def test_a_correction_is_a_new_version(editor, commits):
    story = DraftArticleFactory()
    commits(article_publish, article=story, by=editor)
    published = story.version
    commits(correction_add, article=story, by=editor, kind="correction", text_ar="صح")
    assert events(story)[-1] == ("ar", Event.CORRECTED, published + 1)


def test_a_kill_is_a_release_of_the_editions_partners_had(editor, commits):
    story = DraftArticleFactory(headline_en="A headline in English")
    commits(article_publish, article=story, by=editor)
    commits(article_kill, article=story, by=editor, reason="قرار قانوني")
    assert story.status == Status.KILLED
    kills = [row for row in events(story) if row[1] == Event.KILLED]
    assert sorted(lang for lang, _e, _v in kills) == ["ar", "en"]


def test_unpublishing_is_a_release(editor, commits):
    story = DraftArticleFactory()
    commits(article_publish, article=story, by=editor)
    commits(article_unpublish, article=story, by=editor)
    assert events(story)[-1][1] == Event.UNPUBLISHED


def test_killing_a_story_never_released_releases_nothing(editor, commits):
    story = DraftArticleFactory()
    commits(article_kill, article=story, by=editor, reason="قرار قانوني")
    assert events(story) == []


def test_nothing_is_released_when_the_change_rolls_back(editor):
    """Without a commit, nothing was announced."""
    story = DraftArticleFactory()
    article_publish(article=story, by=editor)  # the test's transaction never commits
    assert events(story) == []


def test_a_release_is_listed_only_once_settled(editor, commits, settings):
    settings.PARTNER_API_SETTLE_SECONDS = 10
    story = DraftArticleFactory()
    commits(article_publish, article=story, by=editor)
    now = timezone.now()
    assert not visible_releases(now=now).filter(article=story).exists()
    later = now + timedelta(seconds=11)
    assert visible_releases(now=later).filter(article=story).exists()


def test_a_scheduled_story_appears_at_its_time_after_earlier_cursors(
    editor, commits, settings
):
    """Its row sorts at its publication time: a cursor handed out before then is
    behind it, so the sync that follows that time finds it."""
    settings.PARTNER_API_SETTLE_SECONDS = 0
    at = timezone.now() + timedelta(hours=2)
    scheduled = DraftArticleFactory()
    commits(article_publish, article=scheduled, by=editor, at=at)
    now_story = DraftArticleFactory()
    commits(article_publish, article=now_story, by=editor)

    before = list(visible_releases(now=timezone.now() + timedelta(seconds=1)))
    assert [r.article_id for r in before] == [now_story.pk]
    cursor = (before[-1].visible_at, before[-1].pk)

    after = visible_releases(now=at + timedelta(seconds=1))
    newer = [r for r in after if (r.visible_at, r.pk) > cursor]
    assert [r.article_id for r in newer] == [scheduled.pk]


def test_only_the_newest_release_of_an_edition_is_listed(editor, commits, settings):
    settings.PARTNER_API_SETTLE_SECONDS = 0
    story = DraftArticleFactory()
    commits(article_publish, article=story, by=editor)
    commits(correction_add, article=story, by=editor, kind="correction", text_ar="صح")
    listed = list(visible_releases(now=timezone.now() + timedelta(seconds=1)))
    assert [(r.event, r.version) for r in listed] == [(Event.CORRECTED, story.version)]


def test_a_save_announced_twice_is_one_release(editor, commits):
    """An embargo set in a save announces the save and the embargo."""
    story = DraftArticleFactory()
    commits(article_publish, article=story, by=editor)
    story.embargo_until = timezone.now() + timedelta(hours=1)
    commits(
        article_save,
        edit=StoryEdit(article=story, base_version=story.version),
        by=editor,
    )
    rows = [row for row in events(story) if row[2] == story.version]
    assert rows == [("ar", Event.UPDATED, story.version)]
    assert (
        Release.objects.get(article=story, version=story.version).visible_at
        == story.embargo_until
    )


def test_the_migration_releases_every_published_story_once():
    """Partners start from the whole archive: each published or scheduled story is
    released in each edition it has; drafts and killed stories are not."""
    from importlib import import_module

    from django.apps import apps

    backfill = import_module("distribution.migrations.0002_release_published_stories")
    public = DraftArticleFactory(
        status=Status.PUBLISHED,
        published_at=timezone.now() - timedelta(days=1),
        headline_en="In English",
    )
    at = timezone.now() + timedelta(hours=3)
    scheduled = DraftArticleFactory(status=Status.PUBLISHED, published_at=at)
    DraftArticleFactory()
    DraftArticleFactory(status=Status.KILLED)
    backfill.forwards(apps, None)
    backfill.forwards(apps, None)  # run twice: still once
    rows = Release.objects.order_by("article_id", "language")
    assert [(r.article_id, r.language, r.event) for r in rows] == [
        (public.pk, "ar", Event.PUBLISHED),
        (public.pk, "en", Event.PUBLISHED),
        (scheduled.pk, "ar", Event.PUBLISHED),
    ]
    assert rows.get(article=scheduled).visible_at == at
