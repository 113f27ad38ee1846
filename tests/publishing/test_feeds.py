"""The RSS and Atom feeds of each edition, section, tag, person and source."""

import xml.etree.ElementTree as ET
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from articles.models import Status
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    DraftArticleFactory,
    PersonFactory,
    ProtectedPersonFactory,
    SectionFactory,
)

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def rss(client, url: str) -> ET.Element:
    """The feed's <channel>, parsed."""
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/rss+xml")
    return ET.fromstring(response.content).find("channel")


def titles(channel: ET.Element) -> list[str]:
    return [item.findtext("title") for item in channel.findall("item")]


def url_in(language: str, obj) -> str:
    with translation.override(language):
        return obj.get_absolute_url()


def test_feed_lists_published_stories_newest_first(client):
    """The edition's feed lists its published stories, the newest first."""
    now = timezone.now()
    ArticleFactory(headline_ar="الأقدم", published_at=now - timedelta(hours=3))
    ArticleFactory(headline_ar="الأحدث", published_at=now - timedelta(hours=1))

    assert titles(rss(client, "/ar/feed/")) == ["الأحدث", "الأقدم"]


def test_feed_holds_thirty_stories(client):
    """A feed carries the 30 latest stories, no more."""
    ArticleFactory.create_batch(31)

    assert len(titles(rss(client, "/ar/feed/"))) == 30


def test_feed_item_has_link_summary_dates_authors_and_tags(client):
    """An item gives the absolute link, summary, dates, byline names and tags."""
    article = ArticleFactory(headline_ar="خبر", summary_ar="ملخص الخبر")
    article.tags.add("سجون")
    BylineFactory(article=article, name="كاتب ضيف")

    item = rss(client, "/ar/feed/").find("item")

    assert item.findtext("link") == f"http://testserver{url_in('ar', article)}"
    assert item.findtext("description") == "ملخص الخبر"
    assert item.findtext("pubDate")
    assert "كاتب ضيف" in item.findtext("{http://purl.org/dc/elements/1.1/}creator")
    assert [c.text for c in item.findall("category")] == ["سجون"]


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
def test_unpublished_story_is_not_in_the_feed(client, story):
    """Drafts, killed, scheduled and embargoed stories are not in the feed."""
    ArticleFactory(headline_ar="مخفي", **story)
    ArticleFactory(headline_ar="منشور")

    assert titles(rss(client, "/ar/feed/")) == ["منشور"]


def test_english_feed_lists_only_stories_with_an_english_headline(client):
    """The English feed skips stories written only in Arabic."""
    ArticleFactory(headline_ar="بالعربية فقط")
    ArticleFactory(headline_ar="بالعربية", headline_en="In English")

    channel = rss(client, "/en/feed/")

    assert titles(channel) == ["In English"]
    assert channel.findtext("language") == "en"


def test_atom_feed_lists_the_stories(client):
    """The Atom feed lists the same stories as entries."""
    ArticleFactory(headline_ar="خبر")

    response = client.get("/ar/feed/atom/")

    root = ET.fromstring(response.content)
    assert [e.findtext(f"{ATOM}title") for e in root.findall(f"{ATOM}entry")] == ["خبر"]


def test_section_feed_lists_only_its_section(client):
    """A section's feed holds only that section's stories."""
    section = SectionFactory()
    ArticleFactory(headline_ar="في القسم", section=section)
    ArticleFactory(headline_ar="خارج القسم")

    assert titles(rss(client, f"{url_in('ar', section)}feed/")) == ["في القسم"]


def test_tag_feed_lists_only_its_tag(client):
    """A tag's feed holds only the stories with that tag."""
    ArticleFactory(headline_ar="موسوم").tags.add("سجون")
    ArticleFactory(headline_ar="غير موسوم")

    assert titles(rss(client, "/ar/tag/سجون/feed/")) == ["موسوم"]


def test_tag_used_only_on_drafts_has_no_feed(client):
    """A tag used only on drafts has no feed, as it has no page."""
    DraftArticleFactory().tags.add("قريبا")

    assert client.get("/ar/tag/قريبا/feed/").status_code == 404


def test_source_feed_lists_the_stories_crediting_it(client):
    """A source's feed holds the stories that credit it."""
    source = AttributionFactory(article=ArticleFactory(headline_ar="منقول")).source
    ArticleFactory(headline_ar="أصلي")

    assert titles(rss(client, f"{url_in('ar', source)}feed/")) == ["منقول"]


def test_person_feed_is_titled_with_the_public_name_only(client):
    """A protected person's feed is titled with the pseudonym, never the legal name."""
    person = ProtectedPersonFactory()
    ArticlePersonFactory(person=person, article=ArticleFactory(headline_ar="شهادة"))

    response = client.get(f"{url_in('ar', person)}feed/")

    channel = ET.fromstring(response.content).find("channel")
    assert "الشاهد" in channel.findtext("title")
    assert titles(channel) == ["شهادة"]
    assert person.name not in response.content.decode()


def test_person_named_only_in_drafts_has_no_feed(client):
    """Like the person page, the feed does not exist before a story names them."""
    person = PersonFactory()
    ArticlePersonFactory(person=person, article=DraftArticleFactory())

    assert client.get(f"{url_in('ar', person)}feed/").status_code == 404


def test_person_feed_with_an_old_slug_redirects(client):
    """A person feed at an outdated slug redirects to the current one."""
    person = PersonFactory()
    ArticlePersonFactory(person=person)

    response = client.get(f"/ar/people/{person.pk}/old-name/feed/")

    assert response.status_code == 301
    assert response["Location"] == f"{url_in('ar', person)}feed/"


@pytest.mark.parametrize(
    ("url", "queries"),
    # Stories, their bylines and their tags; a section feed first finds its section.
    [("/ar/feed/", 3), ("/ar/feed/atom/", 3), ("/ar/section/{section}/feed/", 4)],
)
def test_feed_reads_a_fixed_number_of_queries(
    client, django_assert_num_queries, url, queries
):
    """A feed costs the same number of queries for one story or ten."""
    section = SectionFactory()
    url = url.format(section=section.slug)

    def story():
        article = ArticleFactory(section=section)
        article.tags.add("سجون", "حرية")
        BylineFactory(article=article)

    story()
    with django_assert_num_queries(queries):
        client.get(url)
    for _ in range(9):
        story()

    with django_assert_num_queries(queries):
        client.get(url)


def test_home_page_links_its_feed(client):
    """The home page points feed readers at the edition's RSS feed."""
    response = client.get("/ar/")

    assert (
        '<link rel="alternate" type="application/rss+xml" title="'
        in response.content.decode()
    )
    assert 'href="http://testserver/ar/feed/"' in response.content.decode()


def test_section_page_links_its_feed(client):
    """A section page points feed readers at the section's feed."""
    section = SectionFactory()

    response = client.get(url_in("en", section))

    assert f'href="http://testserver{url_in("en", section)}feed/"' in (
        response.content.decode()
    )


def test_feed_sends_no_last_modified(client):
    """A feed gives no Last-Modified, which would not move when a story is killed
    and so could let a reader keep seeing it."""
    ArticleFactory()

    assert "Last-Modified" not in client.get("/ar/feed/").headers
