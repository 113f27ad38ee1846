"""Rendered fragments of public pages, kept in the cache for every reader.

The page cache (newsroom/page_cache.py) answers a reader only when the whole page is
stored; with it off, or on a miss, the article page would be built from eight
queries and a full template. Its expensive parts are kept here instead, rendered:

- the story itself (meta tags, JSON-LD, the article element), under the story's pk,
  its `version` and `updated_at` (every save through a service changes both), the
  *fragment generation*, the language and the host (the page names its own absolute
  address). The generation moves on every committed change of anything else the
  story shows (a section, tag, person, source, image, byline, correction):
  `content_changed` is sent for each, after commit, by the services;
- the related stories, under the page cache's generation, which moves on every
  change at all (a withdrawn story leaves every list at once), and for at most
  RELATED_SECONDS (a scheduled story joins the lists within that time);
- the site menu and breaking banner of every page (navigation_html).

What is public is never decided here: the article view reads the story's row on
every request and shows fragments only of a story that is public now. The fragments
hold nothing the stored rows do not, and the identity gate ran on those at save; a
person protected later announces the change (person_save), which drops them all.
"""

from collections.abc import Callable
from hashlib import sha256
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

from newsroom import generations
from newsroom.page_cache import generation

GENERATION_KEY = generations.register("fragments:generation")
# Bounds how long a change made outside the services (a staff member's name in the
# user admin) can stay unseen; every editorial change purges at once.
FRAGMENT_SECONDS = 24 * 60 * 60
RELATED_SECONDS = 60


def fragment_generation() -> int:
    """The current generation of the story fragments."""
    return generations.current(GENERATION_KEY)


def fragments_purge() -> None:
    """Start a new generation: every story's fragments are rendered afresh."""
    generations.advance(GENERATION_KEY)


def purge_on_change(sender, **kwargs) -> None:
    """content_changed receiver: any row a story shows may have changed.

    A story's own change gives it a new version, so only changes of other rows
    (sections, tags, people, sources, images, corrections...) start a generation;
    editing one story leaves every other story's fragments warm.
    """
    from .models import Article

    if sender is not Article:
        fragments_purge()


def _language() -> str:
    return get_language() or settings.LANGUAGE_CODE


def _host(request) -> str:
    # Hashed: a validated host name (ALLOWED_HOSTS), so a handful of keys at most.
    return sha256(request.build_absolute_uri("/").encode()).hexdigest()[:16]


def story_key(article, request) -> str:
    """The cache key of a story's fragments as it now stands, in this edition."""
    return (
        f"fragments:story:{fragment_generation()}:{article.pk}:{article.version}:"
        f"{article.updated_at.timestamp()}:{_language()}:{_host(request)}"
    )


def related_key(article) -> str:
    return f"fragments:related:{generation()}:{article.pk}:{_language()}"


def cached(*parts: tuple[str, Callable[[], Any], int]) -> list[Any]:
    """Each part's fragment, given as (key, render, timeout): all read in one round
    trip, and those missing rendered (in the order given) and stored."""
    found = cache.get_many([key for key, _render, _timeout in parts])
    values = []
    for key, render, timeout in parts:
        value = found.get(key)
        if value is None:
            value = render()
            cache.set(key, value, timeout)
        values.append(value)
    return values
