"""The breaking-news banner shows the latest breaking story and leaves by itself."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from publishing.breaking import breaking_story
from tests.factories import ArticleFactory, DraftArticleFactory

pytestmark = pytest.mark.django_db


def test_the_latest_breaking_story_is_on_every_page(client):
    """A story marked breaking an hour ago heads the home and other pages."""
    ArticleFactory(headline_ar="عاجل: زلزال قوي", is_breaking=True)
    other = ArticleFactory(headline_ar="خبر عادي")
    with translation.override("ar"):
        for url in ("/ar/", other.get_absolute_url()):
            html = client.get(url).content.decode()
            assert 'class="breaking-banner"' in html, url
            assert "عاجل: زلزال قوي" in html, url


def test_the_banner_leaves_after_the_breaking_hours(settings):
    """Six hours (the setting) after publication, the banner is gone by itself."""
    settings.BREAKING_NEWS_HOURS = 6
    story = ArticleFactory(is_breaking=True, published_at=timezone.now())
    with translation.override("ar"):
        assert breaking_story(at=story.published_at + timedelta(hours=5))
        assert breaking_story(at=story.published_at + timedelta(hours=7)) is None


def test_drafts_and_other_editions_make_no_banner():
    """A breaking draft, or a story without an English headline, shows nothing."""
    DraftArticleFactory(is_breaking=True)
    ArticleFactory(is_breaking=True, headline_en="")
    with translation.override("en"):
        assert breaking_story() is None


def test_no_banner_without_breaking_news(client):
    """Ordinary days have no banner."""
    ArticleFactory()
    assert 'class="breaking-banner"' not in client.get("/ar/").content.decode()
