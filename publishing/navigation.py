"""The site's section menu and breaking banner, cached because every public page
shows them."""

import time
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from articles.models import Section
from core import generations
from edge.keys import BANNER, key_of_story, shown
from publishing.page_cache import GENERATION_KEY

CACHE_KEY = "navigation:sections:{language}"
CACHE_SECONDS = 60 * 60
# The rendered menu and banner, stamped with the page cache's generation (any
# change drops it).
HTML_KEY = "fragments:navigation-keyed:{language}"
# As long as the banner's own lookup is kept (publishing.breaking).
HTML_SECONDS = 300


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


def forget_menu() -> None:
    """A renamed, added or removed section shows in the menu at once."""
    cache.delete_many(
        [CACHE_KEY.format(language=code) for code, _ in settings.LANGUAGES]
        + [HTML_KEY.format(language=code) for code, _ in settings.LANGUAGES]
    )


class Navigation(NamedTuple):
    """The menu and the banner, rendered, and the surrogate keys of what they show
    (edge.keys): a page showing them is purged when a breaking story comes or the
    one on the banner changes."""

    html: SafeString
    keys: frozenset[str]


def navigation_fragment() -> generations.Fragment:
    """The menu and the breaking banner of this edition (a Navigation), rendered
    once per change.

    Kept no longer than the banner may show, so it leaves on time by itself.
    """
    language = get_language() or settings.LANGUAGE_CODE
    return generations.Fragment(
        HTML_KEY.format(language=language), GENERATION_KEY, _render
    )


def navigation_html(request) -> SafeString:
    """The menu and the breaking banner, from the cache when it holds them; their
    keys added to the page's (edge.keys.shown)."""
    (navigation,) = generations.cached(navigation_fragment())
    shown(request, navigation.keys)
    return navigation.html


def _render() -> tuple[Navigation, float]:
    from .breaking import breaking_story

    banner = breaking_story()
    html = render_to_string(
        "includes/site_navigation.html",
        {"sections": menu_sections(), "story": banner},
    )
    seconds = HTML_SECONDS
    keys = {BANNER}
    if banner is not None:
        seconds = max(1, min(seconds, banner["until"] - time.time()))
        keys.add(key_of_story(banner["pk"]))
    return Navigation(html, frozenset(keys)), seconds


def navigation(request) -> dict:
    """Context processor: the menu and the breaking-news banner as callables, so
    pages that skip them never query."""
    from .breaking import breaking_story

    return {"menu_sections": menu_sections, "breaking_news": breaking_story}
