"""The site's section menu, cached because every public page shows it."""

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils.translation import get_language

from .models import Section

CACHE_KEY = "navigation:sections:{language}"
CACHE_SECONDS = 60 * 60


def menu_sections() -> list[dict[str, str]]:
    """Name, URL and slug of every section, in menu order, for the active language."""
    key = CACHE_KEY.format(language=get_language())
    return cache.get_or_set(
        key,
        lambda: [
            {
                "name": section.name,
                "url": section.get_absolute_url(),
                "slug": section.slug,
            }
            for section in Section.objects.all()
        ],
        CACHE_SECONDS,
    )


@receiver([post_save, post_delete], sender=Section)
def forget_menu(**kwargs) -> None:
    """A renamed, added or removed section shows in the menu at once."""
    cache.delete_many(
        [CACHE_KEY.format(language=code) for code, _ in settings.LANGUAGES]
    )


def navigation(request) -> dict:
    """Context processor: the menu and the breaking-news banner as callables, so
    pages that skip them never query."""
    from .breaking import breaking_story

    return {"menu_sections": menu_sections, "breaking_news": breaking_story}
