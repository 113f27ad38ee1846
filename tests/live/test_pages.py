"""What readers get of a live coverage: the page, older entries, the poll, JSON-LD,
the feed and the news sitemap."""

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from arabic.dates import format_hijri, to_hijri
from live.models import LiveEntry
from live.services import (
    live_end,
    live_entry_correct,
    live_entry_pin,
    live_pause,
)
from tests.factories import DraftArticleFactory, ImageFactory, ProtectedPersonFactory
from tests.live.conftest import LEGAL_NAME, add

pytestmark = pytest.mark.django_db


def page_url(article, language="ar") -> str:
    with translation.override(language):
        return article.get_absolute_url()


def updates_url(article, language="ar") -> str:
    with translation.override(language):
        return reverse("live:updates", args=[article.pk])


def json_ld_of(html: str) -> dict:
    data = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    return json.loads(data.group(1))


def entry_ids(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-entry="(\d+)"', html)]


def add_many(article, by, count: int) -> list[LiveEntry]:
    """`count` entries a minute apart, the last the newest."""
    start = timezone.now() - timedelta(minutes=count)
    entries = []
    for i in range(count):
        entry = add(article, by, text=f"<p>تحديث رقم {i}</p>")
        LiveEntry.objects.filter(pk=entry.pk).update(
            posted_at=start + timedelta(minutes=i)
        )
        entries.append(entry)
    return entries


def test_the_page_shows_pinned_entries_then_the_newest_first(
    client, live_story, desk_editor
):
    first, second, third = add_many(live_story, desk_editor, 3)
    live_entry_pin(entry=first, by=desk_editor, pinned=True)
    html = client.get(page_url(live_story)).content.decode()
    assert entry_ids(html) == [first.pk, third.pk, second.pk]


def test_each_entry_shows_its_time_and_hijri_date_in_arabic(
    client, live_story, desk_editor
):
    entry = add(live_story, desk_editor)
    html = client.get(page_url(live_story)).content.decode()
    local = timezone.localtime(entry.posted_at)
    assert local.strftime("%H:%M") in html
    assert format_hijri(to_hijri(local.date()), language="ar") in html


def test_the_english_edition_gives_the_hijri_date_in_english(
    client, live_story, desk_editor
):
    entry = add(live_story, desk_editor)
    html = client.get(page_url(live_story, "en")).content.decode()
    local = timezone.localtime(entry.posted_at)
    assert format_hijri(to_hijri(local.date()), language="en") in html


def test_a_correction_is_shown_on_its_entry(client, live_story, desk_editor):
    entry = add(live_story, desk_editor)
    live_entry_correct(entry=entry, by=desk_editor, text={"ar": "كان العدد 12."})
    html = client.get(page_url(live_story)).content.decode()
    item = re.search(rf'<li[^>]*id="entry-{entry.pk}".*?</li>', html, re.S).group(0)
    assert "كان العدد 12." in item
    assert "live-entry__correction" in item


def test_the_page_announces_new_entries_politely(client, live_story):
    html = client.get(page_url(live_story)).content.decode()
    assert 'aria-live="polite"' in html
    assert reverse("live:updates", args=[live_story.pk]) in html


def test_the_page_shows_the_newest_fifty_and_links_to_older(
    client, live_story, desk_editor
):
    """Older entries are a plain link away: the page works without JavaScript."""
    entries = add_many(live_story, desk_editor, 55)
    html = client.get(page_url(live_story)).content.decode()
    shown = entry_ids(html)
    assert shown == [e.pk for e in reversed(entries)][:50]
    older = re.search(r'href="([^"]+)" data-live-more', html).group(1)
    older_html = client.get(older.replace("&amp;", "&")).content.decode()
    assert entry_ids(older_html) == [e.pk for e in reversed(entries[:5])]


def test_the_page_reads_as_many_queries_with_five_or_sixty_entries(
    client, live_story, desk_editor, django_assert_num_queries
):
    """The page's query count does not grow with the entries."""
    add_many(live_story, desk_editor, 5)
    client.get(page_url(live_story))  # the menu and banner, cached for both
    add(live_story, desk_editor)  # the story changed: its fragments are rendered
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get(page_url(live_story))
    add_many(live_story, desk_editor, 55)
    with django_assert_num_queries(len(few)):
        client.get(page_url(live_story))


def test_a_story_page_without_coverage_costs_no_live_query(client):
    """A story that is not live reads no live table at all."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import ArticleFactory

    article = ArticleFactory()
    with CaptureQueriesContext(connection) as queries:
        client.get(page_url(article))
    assert not any("live_liveentry" in q["sql"] for q in queries.captured_queries)


def test_an_ended_coverage_says_so_and_stops_asking(client, live_story, desk_editor):
    add(live_story, desk_editor)
    live_end(article=live_story, by=desk_editor)
    html = client.get(page_url(live_story)).content.decode()
    assert (
        "انتهت هذه التغطية المباشرة" in html or "This live coverage has ended" in html
    )
    assert "data-live-updates" not in html


def test_a_paused_coverage_says_so_and_keeps_asking(client, live_story, desk_editor):
    live_pause(article=live_story, by=desk_editor)
    with translation.override("en"):
        html = client.get(page_url(live_story, "en")).content.decode()
    assert "Live updates are paused" in html
    assert "data-live-updates" in html


def test_json_ld_is_a_live_blog_posting_with_its_updates(
    client, live_story, desk_editor
):
    entry = add(live_story, desk_editor, headline={"ar": "وصول فرق الإنقاذ"})
    data = json_ld_of(client.get(page_url(live_story)).content.decode())
    assert data["@type"] == "LiveBlogPosting"
    assert "coverageStartTime" in data
    assert "coverageEndTime" not in data
    (update,) = data["liveBlogUpdate"]
    assert update["headline"] == "وصول فرق الإنقاذ"
    assert update["url"].endswith(f"#entry-{entry.pk}")


def test_json_ld_of_an_ended_coverage_has_its_end_time(client, live_story, desk_editor):
    live_end(article=live_story, by=desk_editor)
    data = json_ld_of(client.get(page_url(live_story)).content.decode())
    assert "coverageEndTime" in data


def test_an_ordinary_story_stays_a_news_article(client):
    from tests.factories import ArticleFactory

    data = json_ld_of(client.get(page_url(ArticleFactory())).content.decode())
    assert data["@type"] == "NewsArticle"


def test_an_entry_shows_its_library_picture(client, live_story, desk_editor):
    image = ImageFactory(caption="صورة من موقع الزلزال")
    add(live_story, desk_editor, image=image)
    html = client.get(page_url(live_story)).content.decode()
    assert "صورة من موقع الزلزال" in html


# ------------------------------------------------------------ the poll


def test_the_poll_gives_the_state_and_the_entries(client, live_story, desk_editor):
    entry = add(live_story, desk_editor)
    data = client.get(updates_url(live_story)).json()
    assert data["state"] == "live"
    assert data["ids"] == [entry.pk]
    assert f'id="entry-{entry.pk}"' in data["entries"]


def test_an_unchanged_poll_is_answered_304(client, live_story, desk_editor):
    add(live_story, desk_editor)
    first = client.get(updates_url(live_story))
    again = client.get(updates_url(live_story), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_an_unchanged_poll_touches_no_database(
    client, settings, live_story, desk_editor, django_assert_num_queries
):
    """With the page cache on, every reader's repeated poll is answered from it."""
    settings.PAGE_CACHE = True
    add(live_story, desk_editor)
    first = client.get(updates_url(live_story))
    with django_assert_num_queries(0):
        again = client.get(updates_url(live_story))
        not_modified = client.get(
            updates_url(live_story), HTTP_IF_NONE_MATCH=first["ETag"]
        )
    assert again.content == first.content
    assert not_modified.status_code == 304


def test_caches_outside_keep_a_poll_one_interval_at_most(
    client, settings, live_story, desk_editor
):
    """A CDN or a browser hears of no purge: the poll tells them it is fresh for
    one poll interval, not the page cache's own time."""
    settings.PAGE_CACHE = True
    settings.LIVE_POLL_SECONDS = 10
    add(live_story, desk_editor)
    control = client.get(updates_url(live_story))["Cache-Control"]
    assert "max-age=10" in control and "s-maxage=10" in control


def test_a_new_entry_changes_the_poll_after_commit(
    client, settings, live_story, desk_editor, django_capture_on_commit_callbacks
):
    settings.PAGE_CACHE = True
    first = client.get(updates_url(live_story))
    with django_capture_on_commit_callbacks(execute=True):
        entry = add(live_story, desk_editor)
    again = client.get(updates_url(live_story), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again.json()["ids"] == [entry.pk]


def test_the_poll_of_a_draft_is_not_found(client, desk_editor):
    from live.services import live_start

    draft = DraftArticleFactory()
    live_start(article=draft, by=desk_editor)
    add(draft, desk_editor)
    assert client.get(updates_url(draft)).status_code == 404


def test_the_poll_of_a_story_that_is_not_live_is_not_found(client):
    from tests.factories import ArticleFactory

    assert client.get(updates_url(ArticleFactory())).status_code == 404


def test_an_ended_poll_says_ended(client, live_story, desk_editor):
    live_end(article=live_story, by=desk_editor)
    assert client.get(updates_url(live_story)).json()["state"] == "ended"


def test_a_legal_name_written_around_the_gate_is_withheld_from_the_poll(
    client, live_story, desk_editor
):
    """The output check reads every poll: a row written around the services is
    caught on its way out."""
    entry = add(live_story, desk_editor)
    ProtectedPersonFactory()
    LiveEntry.objects.filter(pk=entry.pk).update(body_ar=f"<p>{LEGAL_NAME}</p>")
    response = client.get(updates_url(live_story))
    assert response.status_code == 503
    assert LEGAL_NAME not in response.content.decode()


def test_a_legal_name_written_around_the_gate_is_withheld_from_the_page(
    client, live_story, desk_editor
):
    entry = add(live_story, desk_editor)
    ProtectedPersonFactory()
    LiveEntry.objects.filter(pk=entry.pk).update(headline_ar=LEGAL_NAME)
    response = client.get(page_url(live_story))
    assert response.status_code == 503


# ------------------------------------------------------------ feed and sitemap


def test_the_feed_of_the_story_carries_its_entries(client, live_story, desk_editor):
    add(live_story, desk_editor, headline={"ar": "عاجل من الميدان"})
    with translation.override("ar"):
        url = reverse("live:feed", args=[live_story.pk])
    xml = client.get(url).content.decode()
    assert "عاجل من الميدان" in xml
    assert "<item>" in xml


def test_the_news_sitemap_lists_a_running_coverage_older_than_two_days(
    client, live_story, desk_editor
):
    type(live_story).objects.filter(pk=live_story.pk).update(
        published_at=timezone.now() - timedelta(days=5)
    )
    xml = client.get("/news-sitemap.xml").content.decode()
    assert f"/news/{live_story.pk}/" in xml
    live_end(article=live_story, by=desk_editor)
    xml = client.get("/news-sitemap.xml").content.decode()
    assert f"/news/{live_story.pk}/" not in xml


def test_an_entry_shows_its_social_post_once_in_its_place(
    client, live_story, desk_editor
):
    from tests.factories import SocialPostFactory

    post = SocialPostFactory(article=live_story, text="منشور من موقع الحدث")
    add(live_story, desk_editor, post=post)
    html = client.get(page_url(live_story)).content.decode()
    live = html[html.index('id="live"') :]
    assert "منشور من موقع الحدث" in live
    # Shown in its entry, not again after the story's body.
    assert html.count("منشور من موقع الحدث") == 1
