"""Lists page through older and newer stories by cursor, never by counting."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from articles.models import Article
from core.pagination import BadCursor, cursor_for, keyset_page
from tests.factories import ArticleFactory, SectionFactory

pytestmark = pytest.mark.django_db

LINK_RE = r'rel="{rel}" href="\?{param}=([\d.-]+)"'


def link(html: str, rel: str, param: str) -> str | None:
    found = re.search(LINK_RE.format(rel=rel, param=param), html)
    return found.group(1) if found else None


def headlines(html: str) -> list[str]:
    return re.findall(r"عنوان الخبر رقم \d+", html)


def test_older_links_walk_every_story_once(client):
    """Following "older stories" from the top lists each of 45 stories exactly once,
    newest first, and the last page has no older link."""
    now = timezone.now()
    stories = [
        ArticleFactory(published_at=now - timedelta(minutes=i)) for i in range(45)
    ]
    seen, params = [], {}
    while True:
        html = client.get("/ar/", params).content.decode()
        seen += headlines(html)
        cursor = link(html, "next", "before")
        if cursor is None:
            break
        params = {"before": cursor}
    assert seen == [story.headline_ar for story in stories]


def test_stories_published_at_the_same_moment_are_not_skipped(client):
    """Stories sharing a publication time are told apart by id across pages."""
    moment = timezone.now() - timedelta(hours=1)
    ArticleFactory.create_batch(25, published_at=moment)
    first = client.get("/ar/").content.decode()
    second = client.get("/ar/", {"before": link(first, "next", "before")})
    assert len(set(headlines(first) + headlines(second.content.decode()))) == 25


def test_newer_link_leads_back_to_the_page_before(client):
    """From the third page, "newer stories" shows the second page again."""
    now = timezone.now()
    for i in range(50):
        ArticleFactory(published_at=now - timedelta(minutes=i))
    first = client.get("/ar/").content.decode()
    second = client.get("/ar/", {"before": link(first, "next", "before")})
    second = second.content.decode()
    third = client.get("/ar/", {"before": link(second, "next", "before")})
    back = client.get("/ar/", {"after": link(third.content.decode(), "prev", "after")})
    assert headlines(back.content.decode()) == headlines(second)


def test_newer_link_near_the_top_shows_the_first_page(client):
    """A newer page with fewer than a page of stories above it is the front page."""
    now = timezone.now()
    for i in range(25):
        ArticleFactory(published_at=now - timedelta(minutes=i))
    first = client.get("/ar/").content.decode()
    second = client.get("/ar/", {"before": link(first, "next", "before")})
    back = client.get("/ar/", {"after": link(second.content.decode(), "prev", "after")})
    assert headlines(back.content.decode()) == headlines(first)
    assert 'rel="prev"' not in back.content.decode()


def test_breaking_stories_head_the_home_page_across_cursors(client):
    """The home page's cursor carries the breaking flag: an old breaking story is
    listed first, and the next page continues with the latest other stories."""
    now = timezone.now()
    old_breaking = ArticleFactory(
        published_at=now - timedelta(days=3), is_breaking=True
    )
    for i in range(25):
        ArticleFactory(published_at=now - timedelta(minutes=i))
    first = client.get("/ar/").content.decode()
    assert headlines(first)[0] == old_breaking.headline_ar
    second = client.get("/ar/", {"before": link(first, "next", "before")})
    listed = headlines(first) + headlines(second.content.decode())
    assert len(listed) == len(set(listed)) == 26


def test_section_pages_use_cursors(client):
    """A section's older-stories link carries a cursor and stays in the section."""
    section, other = SectionFactory(), SectionFactory()
    ArticleFactory.create_batch(22, section=section)
    ArticleFactory.create_batch(5, section=other)
    url = f"/ar/section/{section.slug}/"
    first = client.get(url).content.decode()
    second = client.get(url, {"before": link(first, "next", "before")})
    assert len(headlines(second.content.decode())) == 2


@pytest.mark.parametrize(
    "cursor", ["abc", "1.2", "1.2.3.4", "9" * 90, "99999999999999999999999.1"]
)
def test_a_cursor_the_site_did_not_make_is_not_found(client, cursor):
    """A malformed or impossible cursor answers 404, never a server error."""
    ArticleFactory()
    assert client.get("/ar/section/x/", {"before": cursor}).status_code == 404
    assert client.get("/ar/", {"before": cursor}).status_code == 404


def test_a_cursor_past_the_oldest_story_is_not_found(client):
    """Older than the oldest story there is nothing: 404, like a page past the end."""
    story = ArticleFactory()
    cursor = cursor_for(story, ("-is_breaking", "-published_at", "-pk"))
    assert client.get("/ar/", {"before": cursor}).status_code == 404


def test_numbered_pages_still_answer(client):
    """Old "?page=2" addresses keep working for bookmarks and crawlers."""
    ArticleFactory.create_batch(21)
    response = client.get("/ar/", {"page": 2})
    assert response.status_code == 200
    assert len(response.context["articles"]) == 1


def test_cursor_round_trips_the_sort_keys():
    """A cursor decodes to the same breaking flag, microsecond and id it encodes."""
    story = ArticleFactory(is_breaking=True)
    keys = ("-is_breaking", "-published_at", "-pk")
    page = keyset_page(
        Article.objects.all(), keys, per_page=5, before=cursor_for(story, keys)
    )
    assert page.object_list == []
    newer = keyset_page(
        Article.objects.all(), keys, per_page=5, after="0.0.0"
    ).object_list
    assert newer == [story]


def test_keyset_pages_refuse_an_ascending_order():
    """Only newest-first lists are paged by cursor (a programming error otherwise)."""
    with pytest.raises(ValueError):
        keyset_page(Article.objects.all(), ("published_at",), per_page=5)
    with pytest.raises(BadCursor):
        keyset_page(Article.objects.all(), ("-pk",), per_page=5, before="x")
