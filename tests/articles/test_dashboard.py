"""The desk's dashboard on the admin home: each user's lists of the stories waiting
for them, only the lists their role can act on, short, and read in a fixed number
of queries."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from articles.dashboard import ROWS, desk_dashboard
from articles.models import Status
from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS, SOURCE_MANAGERS
from tests.factories import (
    ArticleFactory,
    BylineFactory,
    CorrectionFactory,
    DraftArticleFactory,
    member_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor():
    return member_of(EDITORS)


@pytest.fixture
def reporter():
    return member_of(REPORTERS)


def shelf(user, key: str):
    """The list `key` of `user`'s dashboard, or None when they have none."""
    return next((s for s in desk_dashboard(user) if s.key == key), None)


def stories_in(user, key: str) -> list:
    return [row.article for row in shelf(user, key).rows]


def one_of_each(owner) -> None:
    """A story for every list: a draft of `owner`'s, one in review, one scheduled,
    one embargoed, one published with a correction."""
    now = timezone.now()
    DraftArticleFactory(created_by=owner)
    DraftArticleFactory(status=Status.IN_REVIEW, created_by=owner)
    ArticleFactory(published_at=now + timedelta(hours=3))
    ArticleFactory(embargo_until=now + timedelta(hours=2))
    CorrectionFactory(article=ArticleFactory())


# ------------------------------------------------------------ who sees which list


def test_an_editor_sees_every_list(editor):
    """Drafts, review, scheduled and embargoed, published, corrections."""
    keys = [s.key for s in desk_dashboard(editor)]
    assert keys == ["drafts", "review", "scheduled", "published", "corrections"]


def test_a_reporter_sees_their_drafts_and_what_was_published(reporter):
    """A reporter neither reviews, schedules nor corrects: no such lists."""
    assert [s.key for s in desk_dashboard(reporter)] == ["drafts", "published"]


@pytest.mark.parametrize("role", [SOURCE_MANAGERS, IDENTITY_OFFICERS])
def test_roles_without_stories_to_move_have_no_lists(role):
    """A source manager has no drafts or review queue; nor has an identity officer."""
    assert desk_dashboard(member_of(role)) == []


# ------------------------------------------------------------ what each list holds


def test_my_drafts_are_the_drafts_i_started_or_sign(reporter):
    """Started by me or bylined to me, still drafts; not a colleague's, not sent on."""
    started = DraftArticleFactory(created_by=reporter)
    signed = BylineFactory(article=DraftArticleFactory(), user=reporter).article
    DraftArticleFactory()  # a colleague's
    DraftArticleFactory(created_by=reporter, status=Status.IN_REVIEW)
    assert set(stories_in(reporter, "drafts")) == {started, signed}


def test_waiting_for_review_is_every_submitted_story_oldest_first(editor):
    """The queue is worked from the story that has waited longest."""
    older = DraftArticleFactory(status=Status.IN_REVIEW)
    newer = DraftArticleFactory(status=Status.IN_REVIEW)
    DraftArticleFactory(status=Status.APPROVED)
    assert stories_in(editor, "review") == [older, newer]


def test_a_story_in_review_names_its_writer(editor, reporter):
    """The review list says whose story it is."""
    DraftArticleFactory(status=Status.IN_REVIEW, created_by=reporter)
    [row] = shelf(editor, "review").rows
    assert row.note == reporter.get_full_name()


def test_scheduled_and_embargoed_stories_carry_their_times_soonest_first(editor):
    """Each row says when the story goes live or its embargo lifts."""
    now = timezone.now()
    later = ArticleFactory(published_at=now + timedelta(hours=5))
    sooner = ArticleFactory(embargo_until=now + timedelta(hours=1))
    ArticleFactory()  # public already
    rows = shelf(editor, "scheduled").rows
    assert [row.article for row in rows] == [sooner, later]
    # "embargo lifts", as the Arabic admin says it
    assert [str(label) for label, _when in rows[0].times] == ["يُرفع الحظر"]
    assert rows[0].times[0][1] == sooner.embargo_until
    assert [str(label) for label, _when in rows[1].times] == ["يُنشر"]  # goes live


def test_a_story_both_scheduled_and_embargoed_shows_both_times(editor):
    """Listed once, with the time it goes live and the time its embargo lifts."""
    now = timezone.now()
    ArticleFactory(
        published_at=now + timedelta(hours=1), embargo_until=now + timedelta(hours=2)
    )
    [row] = shelf(editor, "scheduled").rows
    assert len(row.times) == 2


def test_recently_published_is_what_readers_see_newest_first(editor):
    """Scheduled and embargoed stories are not "published" here either."""
    now = timezone.now()
    old = ArticleFactory(published_at=now - timedelta(days=2))
    new = ArticleFactory(published_at=now - timedelta(minutes=5))
    ArticleFactory(published_at=now + timedelta(hours=1))
    ArticleFactory(embargo_until=now + timedelta(hours=1))
    assert stories_in(editor, "published") == [new, old]


def test_recent_corrections_list_their_story_and_kind(editor):
    """A correction's row is its story, with the kind of entry and its time."""
    correction = CorrectionFactory()
    [row] = shelf(editor, "corrections").rows
    assert row.article == correction.article
    assert row.note == str(correction.get_kind_display())


def test_each_list_stops_at_its_rows(editor):
    """More stories than fit: the list shows ROWS; the rest are a link away."""
    DraftArticleFactory.create_batch(ROWS + 2, status=Status.IN_REVIEW)
    review = shelf(editor, "review")
    assert len(review.rows) == ROWS
    assert review.more


# ------------------------------------------------------------ cost


def test_the_dashboard_costs_one_query_a_list_however_many_rows(
    editor, django_assert_num_queries
):
    """Five lists, six reads (scheduled and embargoed are two), with one story in
    each list or with more than fit."""
    editor.has_perm("articles.view_article")  # the permissions, read once a request
    one_of_each(editor)
    with django_assert_num_queries(6):
        desk_dashboard(editor)
    for _ in range(ROWS):
        one_of_each(editor)
    with django_assert_num_queries(6):
        shelves = desk_dashboard(editor)
    assert all(len(s.rows) == ROWS for s in shelves)


def test_the_home_page_costs_the_same_with_more_stories(client, editor):
    """Rendering the lists reads nothing more per row (headlines, writers, links)."""
    client.force_login(editor)
    url = reverse("admin:index")
    one_of_each(editor)
    client.get(url)  # the session and caches, warmed
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for _ in range(3):
        one_of_each(editor)
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)


# ------------------------------------------------------------ the page


def test_the_home_page_links_each_row_to_its_story(client, editor):
    """An editor's home lists the story in review, linked to its change page."""
    story = DraftArticleFactory(status=Status.IN_REVIEW, headline_ar="خبر ينتظر")
    client.force_login(editor)
    html = client.get(reverse("admin:index")).content.decode()
    assert "بانتظار المراجعة" in html  # Waiting for review
    change = reverse("admin:articles_article_change", args=[story.pk])
    assert f'href="{change}"><bdi>خبر ينتظر</bdi></a>' in html


def test_times_are_local_with_arabic_month_names(client, editor):
    """A scheduled time reads as the admin writes dates elsewhere."""
    at = timezone.now() + timedelta(days=3)
    ArticleFactory(published_at=at)
    client.force_login(editor)
    html = client.get(reverse("admin:index")).content.decode()
    with translation.override("ar"):
        shown = date_format(timezone.localtime(at), "DATETIME_FORMAT")
    assert shown in html
    assert "يُنشر" in html  # goes live


def test_the_app_list_stays_below_the_lists(client, editor):
    """The dashboard comes first, the apps after it, on the same page."""
    client.force_login(editor)
    html = client.get(reverse("admin:index")).content.decode()
    assert html.index("desk-dashboard") < html.index("app-articles")


def test_a_reporters_home_has_no_review_list(client, reporter):
    """A reporter's home shows their drafts, not the editors' queue."""
    client.force_login(reporter)
    html = client.get(reverse("admin:index")).content.decode()
    assert "desk-shelf--drafts" in html
    assert "desk-shelf--review" not in html


def test_a_source_managers_home_is_the_app_list(client):
    """No lists to act on: the home page is the apps, sources among them."""
    client.force_login(member_of(SOURCE_MANAGERS))
    html = client.get(reverse("admin:index")).content.decode()
    assert "desk-dashboard" not in html
    assert "app-sources" in html
