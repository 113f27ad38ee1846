"""The desk's story search shows the newest matches: drafts first, then the latest
published, at most a window of them, never counting or sorting every match."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from articles.admin.stories import ArticleAdmin
from articles.models import Article
from articles.search_window import desk_window
from core.roles import EDITORS
from tests.factories import ArticleFactory, DraftArticleFactory, member_of

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:articles_article_changelist")


@pytest.fixture
def editor_client(client):
    """The desk as a plain member of the Editors group."""
    client.force_login(member_of(EDITORS))
    return client


def days_ago(days: int):
    return timezone.now() - timedelta(days=days)


def shown(client, **query) -> list:
    response = client.get(CHANGELIST, query)
    assert response.status_code == 200
    return list(response.context["cl"].result_list)


def undated_first() -> bool:
    """Whether the database sorts undated drafts before the newest stories (as
    PostgreSQL does) or after the oldest (SQLite)."""
    return connection.features.nulls_order_largest


def test_a_search_lists_the_newest_first_as_the_unsearched_list(editor_client):
    """The order of the unsearched list: newest first, undated drafts where the
    database sorts them."""
    old = ArticleFactory(headline_ar="ميناء قديم", published_at=days_ago(400))
    new = ArticleFactory(headline_ar="ميناء جديد", published_at=days_ago(1))
    draft = DraftArticleFactory(headline_ar="ميناء في مسودة")
    ArticleFactory(headline_ar="خبر آخر")
    expected = [draft, new, old] if undated_first() else [new, old, draft]
    assert shown(editor_client, q="ميناء") == expected


def test_a_search_shows_only_the_newest_window_of_matches(editor_client, monkeypatch):
    """Past the window the older matches are left out, and the desk is told how
    to reach them."""
    monkeypatch.setattr(ArticleAdmin, "search_window", 2)
    editor_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    ArticleFactory(headline_ar="ميناء قديم", published_at=days_ago(900))
    middle = ArticleFactory(headline_ar="ميناء", published_at=days_ago(30))
    new = ArticleFactory(headline_ar="ميناء جديد", published_at=days_ago(1))
    response = editor_client.get(CHANGELIST, {"q": "ميناء"})
    assert list(response.context["cl"].result_list) == [new, middle]
    notes = [str(message) for message in get_messages(response.wsgi_request)]
    assert any("The newest 2 matching stories are shown" in n for n in notes)


def test_a_search_within_the_window_says_nothing_more(editor_client):
    """Fewer matches than the window: all are shown, with no note."""
    ArticleFactory(headline_ar="ميناء")
    response = editor_client.get(CHANGELIST, {"q": "ميناء"})
    assert len(response.context["cl"].result_list) == 1
    assert not list(get_messages(response.wsgi_request))


def test_a_search_sorted_by_headline_sorts_the_window(editor_client, monkeypatch):
    """Another column sorts the newest matches, not the whole archive's."""
    monkeypatch.setattr(ArticleAdmin, "search_window", 2)
    ArticleFactory(headline_ar="أ ميناء", published_at=days_ago(900))
    b = ArticleFactory(headline_ar="ب ميناء", published_at=days_ago(2))
    c = ArticleFactory(headline_ar="ت ميناء", published_at=days_ago(1))
    assert shown(editor_client, q="ميناء", o="1") == [b, c]


def test_the_window_keeps_the_lists_filters(editor_client):
    """A date or state filter narrows what the window is taken from."""
    ArticleFactory(headline_ar="ميناء", published_at=days_ago(1))
    draft = DraftArticleFactory(headline_ar="ميناء")
    assert shown(editor_client, q="ميناء", state="draft") == [draft]


def test_the_window_is_the_first_rows_of_the_list():
    """Drafts and dated stories together: the window holds the rows the list
    would show first, in its order."""
    first, second = DraftArticleFactory(), DraftArticleFactory()
    old = ArticleFactory(published_at=days_ago(9))
    new = ArticleFactory(published_at=days_ago(1))
    listed = [second.pk, first.pk, new.pk, old.pk]
    if not undated_first():
        listed = [new.pk, old.pk, second.pk, first.pk]
    stories = Article.objects.all()
    assert list(stories.values_list("pk", flat=True)) == listed
    for size in range(1, 5):
        assert desk_window(stories, window=size) == listed[:size]


def test_a_search_never_counts_every_match(editor_client):
    """No count of the whole archive or of every match: the page reads the window."""
    ArticleFactory(headline_ar="ميناء")
    with CaptureQueriesContext(connection) as queries:
        editor_client.get(CHANGELIST, {"q": "ميناء"})
    counts = [q["sql"] for q in queries if "COUNT(" in q["sql"].upper()]
    assert all('"id" IN (' in sql for sql in counts if "articles_article" in sql)
