"""A story describes and credits itself even when the desk wrote no summary: meta
and social descriptions, the feed item, NewsArticle authors and originals, and the
feeds every public page offers to feed finders."""

import json
import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation

from articles.body import lead_text
from core.text import cut_at_word
from sources.models import Attribution
from tests.factories import (
    ArticleFactory,
    AttributionFactory,
    BylineFactory,
    SectionFactory,
    SourceFactory,
)

pytestmark = pytest.mark.django_db

FIRST = "أعلنت البلدية افتتاح الجسر الجديد فوق الوادي بعد ثلاث سنوات من العمل المتواصل"
LONG = " ".join([FIRST] * 6)


def page(client, article, language="ar") -> str:
    with translation.override(language):
        return client.get(article.get_absolute_url()).content.decode()


def meta(html: str, attribute: str, name: str) -> str:
    return re.search(rf'<meta {attribute}="{name}" content="([^"]*)"', html).group(1)


def news_article(html: str) -> dict:
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def feed_links(html: str) -> list[str]:
    rss = r'<link rel="alternate" type="application/rss\+xml"'
    return re.findall(rf'{rss} title="[^"]*" href="([^"]+)"', html)


# ------------------------------------------------------------ words


def test_a_long_text_is_cut_between_words():
    cut = cut_at_word(LONG, 120)
    assert len(cut) <= 120 and cut.endswith("…")
    assert LONG.startswith(cut.removesuffix("…"))
    assert LONG[len(cut) - 1] == " "


def test_a_short_text_is_kept_whole():
    assert cut_at_word(FIRST, 200) == FIRST


def test_the_lead_skips_placed_posts_and_empty_paragraphs():
    body = f'<p></p><figure data-post="3"></figure><p>{FIRST}</p><p>الثانية</p>'
    assert lead_text(body) == FIRST


# ------------------------------------------------------------ descriptions


def test_without_a_summary_the_page_is_described_by_its_first_paragraph(client):
    article = ArticleFactory(summary_ar="", body_ar=f"<p>{LONG}</p><p>تفاصيل</p>")
    html = page(client, article)
    described = meta(html, "name", "description")
    assert described and LONG.startswith(described.removesuffix("…"))
    assert meta(html, "property", "og:description") == described
    assert meta(html, "name", "twitter:description") == described
    assert news_article(html)["description"] == described


def test_a_summary_is_the_description_when_there_is_one(client):
    article = ArticleFactory(summary_ar="ملخص الخبر", body_ar=f"<p>{FIRST}</p>")
    assert meta(page(client, article), "name", "description") == "ملخص الخبر"


def test_the_feed_item_without_a_summary_carries_the_first_paragraph(client):
    ArticleFactory(summary_ar="", body_ar=f"<p>{FIRST}</p>")
    with translation.override("ar"):
        feed = client.get(reverse("articles:feed")).content.decode()
    assert f"<description>{FIRST}</description>" in feed


# ------------------------------------------------------------ credits


def test_republished_copy_without_a_byline_is_authored_by_its_outlet(client):
    outlet = SourceFactory(name_ar="موقع المدينة", homepage="https://city.example/")
    article = ArticleFactory()
    AttributionFactory(
        article=article, source=outlet, role=Attribution.Role.REPUBLISHED
    )
    data = news_article(page(client, article))
    assert data["author"] == [
        {
            "@type": "NewsMediaOrganization",
            "name": "موقع المدينة",
            "url": "https://city.example/",
        }
    ]


def test_bylines_are_the_authors_when_there_are_any(client):
    article = ArticleFactory()
    BylineFactory(article=article, name="مراسلة الدار")
    AttributionFactory(article=article, role=Attribution.Role.REPUBLISHED)
    assert news_article(page(client, article))["author"] == [
        {"@type": "Person", "name": "مراسلة الدار"}
    ]


def test_a_cited_outlet_is_neither_author_nor_original(client):
    article = ArticleFactory()
    AttributionFactory(
        article=article,
        role=Attribution.Role.CITED,
        original_url="https://cited.example/interview",
    )
    data = news_article(page(client, article))
    assert "author" not in data and "isBasedOn" not in data
    assert data["citation"] == ["https://cited.example/interview"]


def test_the_original_carries_its_address_date_and_outlet(client):
    article = ArticleFactory()
    AttributionFactory(
        article=article,
        source=SourceFactory(name_ar="وكالة الخليج"),
        original_url="https://gulf.example/story/1",
        original_published_on=date(2024, 12, 12),
    )
    [work] = news_article(page(client, article))["isBasedOn"]
    assert work["url"] == "https://gulf.example/story/1"
    assert work["datePublished"] == "2024-12-12"
    assert work["publisher"]["name"] == "وكالة الخليج"


def test_republished_copy_without_an_address_still_names_its_original(client):
    """The seed's shape: "المصدر: موقع 24", with no link to the original."""
    article = ArticleFactory()
    AttributionFactory(article=article, source=SourceFactory(name_ar="موقع 24"))
    [work] = news_article(page(client, article))["isBasedOn"]
    assert "url" not in work
    assert work["publisher"]["name"] == "موقع 24"


# ------------------------------------------------------------ feed finders


def test_a_story_offers_its_edition_and_section_feeds(client):
    section = SectionFactory(slug="economy")
    article = ArticleFactory(section=section)
    links = feed_links(page(client, article))
    assert links == [
        "http://testserver/ar/feed/",
        "http://testserver/ar/section/economy/feed/",
    ]


def test_a_story_without_a_section_offers_the_edition_feed(client):
    links = feed_links(page(client, ArticleFactory(section=None), language="en"))
    assert links == ["http://testserver/en/feed/"]


@pytest.mark.parametrize("name", ["articles:home", "articles:search"])
def test_every_list_offers_the_edition_feed_once(client, name):
    ArticleFactory()
    with translation.override("ar"):
        html = client.get(reverse(name), {"q": "خبر"}).content.decode()
    assert feed_links(html) == ["http://testserver/ar/feed/"]


def test_a_tag_page_offers_the_edition_feed_and_its_own(client):
    article = ArticleFactory()
    article.tags.add("الطقس")
    tag = article.tags.get()
    with translation.override("ar"):
        html = client.get(reverse("articles:tag", args=[tag.slug])).content.decode()
    assert feed_links(html) == [
        "http://testserver/ar/feed/",
        "http://testserver" + reverse("articles:tag-feed", args=[tag.slug]),
    ]
