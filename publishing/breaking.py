"""The breaking-news banner: the latest breaking story, on every page, for a few
hours after it is published, and gone by itself afterwards."""

from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import get_language

from articles.models import Article
from publishing.page_cache import generation

_NONE = "-"  # cached when there is no banner, so the lookup is not repeated


def breaking_story(*, at=None) -> dict | None:
    """Headline and address of the latest public breaking story of the edition,
    while it is younger than BREAKING_NEWS_HOURS; cached until the next change."""
    language = get_language() or settings.LANGUAGE_CODE
    now = at or timezone.now()
    key = f"breaking:{generation()}:{language}"
    cached = cache.get(key) if at is None else None
    if cached is not None:
        if cached == _NONE or cached["until"] <= now.timestamp():
            return None
        return cached
    since = now - timedelta(hours=settings.BREAKING_NEWS_HOURS)
    story = (
        Article.objects.published(at=now)
        .available_in(language)
        .filter(is_breaking=True, published_at__gte=since)
        .only("pk", "slug", f"slug_{language}", "headline", f"headline_{language}")
        .order_by("-published_at", "-pk")
        .first()
    )
    banner = _NONE
    timeout = 300
    if story is not None:
        until = story.published_at + timedelta(hours=settings.BREAKING_NEWS_HOURS)
        banner = {
            "pk": story.pk,
            "headline": story.headline,
            "url": story.get_absolute_url(),
            "until": until.timestamp(),
        }
        timeout = max(1, min(timeout, int(until.timestamp() - now.timestamp())))
    if at is None:
        cache.set(key, banner, timeout)
    return None if banner == _NONE else banner
