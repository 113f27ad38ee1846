"""The sitemaps for search engines and robots.txt, which points at them."""

import xml.etree.ElementTree as ET
from datetime import timedelta
from urllib.parse import unquote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from articles.models import Status
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    DraftArticleFactory,
    PersonFactory,
)

pytestmark = pytest.mark.django_db

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"
SERVER = "http://testserver"


def parse(client, url: str) -> ET.Element:
    response = client.get(url)
    assert response.status_code == 200
    return ET.fromstring(response.content)


def locations(root: ET.Element) -> list[str]:
    """The pages a sitemap lists, as paths."""
    return [
        unquote(loc.text).removeprefix(SERVER) for loc in root.iter(f"{SITEMAP}loc")
    ]


def url_in(language: str, obj) -> str:
    with translation.override(language):
        return unquote(obj.get_absolute_url())


def entry(root: ET.Element, path: str) -> ET.Element:
    """The sitemap's <url> for `path`."""
    for url in root.findall(f"{SITEMAP}url"):
        if unquote(url.findtext(f"{SITEMAP}loc")).removeprefix(SERVER) == path:
            return url
    raise AssertionError(f"{path} is not in the sitemap")


def test_sitemap_index_lists_every_sitemap(client):
    """/sitemap.xml is an index of the story, section, tag, people and source
    sitemaps."""
    root = parse(client, "/sitemap.xml")

    assert root.tag == f"{SITEMAP}sitemapindex"
    assert set(locations(root)) == {
        f"/sitemap-{name}.xml"
        for name in ("stories", "sections", "tags", "people", "sources")
    }


def test_story_sitemap_lists_a_published_story_with_its_last_change(client):
    """A published story is listed with lastmod from its last update."""
    article = ArticleFactory()

    url = entry(parse(client, "/sitemap-stories.xml"), url_in("ar", article))

    assert url.findtext(f"{SITEMAP}lastmod") == (
        timezone.localtime(article.updated_at).date().isoformat()
    )


@pytest.mark.parametrize(
    "story",
    [
        {"status": Status.DRAFT, "published_at": None},
        {"status": Status.KILLED},
        {"published_at": timezone.now() + timedelta(days=1)},
        {"embargo_until": timezone.now() + timedelta(days=1)},
    ],
    ids=["draft", "killed", "scheduled", "embargoed"],
)
def test_unpublished_story_is_in_no_sitemap(client, story):
    """Drafts, killed, scheduled and embargoed stories are in no sitemap."""
    hidden = ArticleFactory(**story)
    hidden.tags.add("قريبا")
    ArticlePersonFactory(article=hidden, person=PersonFactory())

    listed = [
        *locations(parse(client, "/sitemap-stories.xml")),
        *locations(parse(client, "/sitemap-tags.xml")),
        *locations(parse(client, "/sitemap-people.xml")),
        *locations(parse(client, "/news-sitemap.xml")),
    ]

    assert listed == []


def test_story_has_hreflang_alternates_only_for_its_languages(client):
    """A story written only in Arabic has no English alternate; a story in both
    languages has both."""
    arabic = ArticleFactory()
    both = ArticleFactory(headline_en="In both languages")

    root = parse(client, "/sitemap-stories.xml")

    def hreflangs(article):
        url = entry(root, url_in("ar", article))
        return {
            link.get("hreflang"): unquote(link.get("href")).removeprefix(SERVER)
            for link in url.findall(f"{XHTML}link")
        }

    assert hreflangs(arabic) == {"ar": url_in("ar", arabic)}
    assert hreflangs(both) == {"ar": url_in("ar", both), "en": url_in("en", both)}
    assert url_in("en", arabic) not in locations(root)


def test_tag_and_person_sitemaps_list_only_what_published_stories_use(client):
    """Tags and people appear once a published story uses them, not before."""
    published = ArticleFactory()
    published.tags.add("سجون")
    person = ArticlePersonFactory(article=published).person
    DraftArticleFactory().tags.add("قريبا")

    assert locations(parse(client, "/sitemap-tags.xml")) == ["/ar/tag/سجون/"]
    assert locations(parse(client, "/sitemap-people.xml")) == [url_in("ar", person)]


def test_source_sitemap_lists_sources_in_both_editions(client):
    """Every source page is listed in both editions."""
    source = AttributionFactory().source

    listed = locations(parse(client, "/sitemap-sources.xml"))

    assert {url_in("ar", source), url_in("en", source)} <= set(listed)


def test_news_sitemap_holds_only_the_last_48_hours(client):
    """The Google News sitemap lists stories of the last 48 hours only, with the
    publication's name, language, date and title."""
    now = timezone.now()
    recent = ArticleFactory(headline_ar="خبر اليوم", published_at=now - timedelta(1))
    old = ArticleFactory(published_at=now - timedelta(hours=49))

    root = parse(client, "/news-sitemap.xml")

    assert locations(root) == [url_in("ar", recent)]
    assert url_in("ar", old) not in locations(root)
    news = root.find(f"{SITEMAP}url/{NEWS}news")
    assert news.findtext(f"{NEWS}publication/{NEWS}name") == "Newsroom"
    assert news.findtext(f"{NEWS}publication/{NEWS}language") == "ar"
    assert news.findtext(f"{NEWS}title") == "خبر اليوم"
    assert news.findtext(f"{NEWS}publication_date").startswith(
        timezone.localtime(recent.published_at).date().isoformat()
    )


def test_news_sitemap_lists_each_edition_of_a_story(client):
    """A story in both languages is listed once per edition, in that language."""
    ArticleFactory(headline_ar="بالعربية", headline_en="In English")

    root = parse(client, "/news-sitemap.xml")

    titles = {
        news.findtext(f"{NEWS}publication/{NEWS}language"): news.findtext(
            f"{NEWS}title"
        )
        for news in root.iter(f"{NEWS}news")
    }
    assert titles == {"ar": "بالعربية", "en": "In English"}


def test_robots_txt_names_both_sitemaps_and_keeps_out_of_the_admin(client):
    """robots.txt gives both sitemaps by absolute address and disallows /admin/."""
    response = client.get("/robots.txt")

    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert f"Sitemap: {SERVER}/sitemap.xml" in lines
    assert f"Sitemap: {SERVER}/news-sitemap.xml" in lines
    assert "Disallow: /admin/" in lines


@pytest.mark.parametrize(
    "url", ["/sitemap-stories.xml", "/sitemap-tags.xml", "/news-sitemap.xml"]
)
def test_sitemap_reads_a_fixed_number_of_queries(
    client, django_assert_max_num_queries, url
):
    """A sitemap costs no more queries for ten stories than for one."""

    def story():
        ArticleFactory(headline_en="In English").tags.add("سجون", "حرية")

    story()
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for _ in range(9):
        story()

    with django_assert_max_num_queries(len(one.captured_queries)):
        client.get(url)


def test_story_sitemap_pages_hold_each_edition_of_each_story_once(client, monkeypatch):
    """Pages are read a slice at a time, across the editions, none lost or repeated."""
    monkeypatch.setattr("publishing.sitemaps.StorySitemap.limit", 2)
    stories = [ArticleFactory(headline_en=f"Story {n}") for n in range(2)]
    stories.append(ArticleFactory(headline_en=""))
    index = locations(parse(client, "/sitemap.xml"))
    pages = [loc for loc in index if loc.startswith("/sitemap-stories.xml")]
    assert len(pages) == 3  # five addresses, two a page
    listed = [
        path
        for page in pages
        for path in locations(parse(client, page))
        if "/news/" in path
    ]
    expected = [url_in("ar", s) for s in stories] + [
        url_in("en", s) for s in stories[:2]
    ]
    assert sorted(listed) == sorted(expected)
