"""Readers see attributions as a newsroom writes them, usage terms honoured."""

import re

import pytest
from django.utils import translation

from tests.factories import (
    ArticleFactory,
    AttributionFactory,
    SocialAccountFactory,
    SocialPostFactory,
    SourceFactory,
)

pytestmark = pytest.mark.django_db


def page(client, article, language="en") -> str:
    with translation.override(language):
        url = article.get_absolute_url()
    return client.get(url).content.decode()


def credit_lines(html: str) -> list[str]:
    items = re.findall(r'<li class="attribution[^"]*">(.*?)</li>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", item).split()) for item in items]


def english_article():
    return ArticleFactory(language="en", headline_en="Storm closes the coast road")


def test_each_role_has_its_own_words(client):
    """Original, republished and cited sources read "Source:", "Republished from"
    and "According to"."""
    article = english_article()
    AttributionFactory(article=article, role="cited", source__name_en="Daily Star")
    AttributionFactory(article=article, role="original", source__name_en="Our Desk")
    AttributionFactory(article=article, role="republished", source__name_en="Reuters")
    assert credit_lines(page(client, article)) == [
        "Source: Our Desk",
        "Republished from Reuters",
        "According to Daily Star",
    ]


def test_several_sources_of_one_role_share_one_line(client):
    """Three agencies read "Republished from A, B and C"."""
    article = english_article()
    for name in ("Reuters", "AFP", "AP"):
        AttributionFactory(article=article, source__name_en=name)
    assert credit_lines(page(client, article)) == [
        "Republished from Reuters, AFP and AP"
    ]


def test_arabic_original_reporting_reads_almasdar(client):
    """The Arabic edition credits original reporting as "المصدر:"."""
    article = ArticleFactory()
    AttributionFactory(article=article, role="original", source__name_ar="موقع 24")
    assert credit_lines(page(client, article, "ar")) == ["المصدر: موقع 24"]


def test_required_credit_wording_replaces_the_name(client):
    """A source whose terms require "© Agence Example" is credited that way."""
    article = english_article()
    AttributionFactory(
        article=article,
        source__name_en="Agence Example",
        source__credit_as="© Agence Example 2024",
    )
    assert credit_lines(page(client, article)) == [
        "Republished from © Agence Example 2024"
    ]


def test_required_link_falls_back_to_the_homepage(client):
    """Without the original's address, a required link points at the homepage."""
    article = english_article()
    AttributionFactory(
        article=article,
        source__name_en="Linked Daily",
        source__homepage="https://linked.example/",
        source__link_required=True,
    )
    html = page(client, article)
    assert 'class="attribution__original" href="https://linked.example/"' in html


def test_post_card_names_the_source_that_owns_the_account(client):
    """A post by @Paper_X shows the paper's name beside the handle."""
    paper = SourceFactory(name_en="Morning Paper")
    SocialAccountFactory(source=paper, platform="x", handle="paper_x")
    article = english_article()
    SocialPostFactory(article=article, handle="Paper_X")
    html = page(client, article)
    assert 'class="social-card__source"' in html and "Morning Paper" in html
