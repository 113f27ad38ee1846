"""Rendered fragments of public pages, kept in the cache for every reader.

The page cache (publishing/page_cache.py) answers a reader only when the whole page is
stored; with it off, or on a miss, the article page would be built from eight
queries and a full template. Its expensive pieces are kept here instead, rendered:

- the story itself (meta tags, JSON-LD, the article element), under the story's pk,
  its `version` and `updated_at` (every save through a service changes both), the
  language and the host (the page names its own absolute address), stamped with
  the *fragment generation* (core/generations.py). The generation moves on every
  committed change of anything else the story shows (a section, tag, person,
  source, image, byline name): the services send its domain event after commit
  (core.events, the `SHOWN_BY_STORIES` group);
- the related stories, stamped with the page cache's generation, which moves on
  every change at all (a withdrawn story leaves every list at once), and kept at
  most RELATED_SECONDS (a scheduled story joins the lists within that time);
- the site menu and breaking banner of every page (publishing.navigation);
- the whole page put together from those three, under the story's key, stamped
  with the page cache's generation (which moves whenever either of the others
  does) and kept no longer than the first of its fragments expires.

The article page reads the page put together, and the generation counters, in one
round trip; when it is missing, the three fragments in a second one.

What is public is never decided here: the article view reads the story's row on
every request and shows fragments only of a story that is public now. The fragments
hold nothing the stored rows do not, and the identity gate ran on those at save; a
person protected later sends `person_protected` (person_save), which drops them all.
"""

from collections.abc import Callable
from hashlib import sha256

from django.conf import settings
from django.utils.translation import get_language

from core import generations
from publishing.page_cache import GENERATION_KEY as PAGE_GENERATION_KEY

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


def _language() -> str:
    return get_language() or settings.LANGUAGE_CODE


def _host(request) -> str:
    # Hashed: a validated host name (ALLOWED_HOSTS), so a handful of keys at most.
    return sha256(request.build_absolute_uri("/").encode()).hexdigest()[:16]


def story_fragment(
    article, request, render: Callable[[], dict]
) -> generations.Fragment:
    """A story's fragments as it now stands, in this edition: dropped by a new
    fragment generation."""
    key = (
        f"fragments:story:{article.pk}:{article.version}:"
        f"{article.updated_at.timestamp()}:{_language()}:{_host(request)}"
    )
    return generations.Fragment(
        key, GENERATION_KEY, lambda: (render(), FRAGMENT_SECONDS)
    )


def page_fragment(
    article, request, render: Callable[[], tuple[bytes, float]]
) -> generations.Fragment:
    """The story's whole page in this edition, put together from its fragments, with
    the surrogate keys of what it shows: dropped by any change (the page cache's
    generation), and expiring with them."""
    key = (
        f"fragments:page-keyed:{article.pk}:{article.version}:"
        f"{article.updated_at.timestamp()}:{_language()}:{_host(request)}"
    )
    return generations.Fragment(key, PAGE_GENERATION_KEY, render)


def related_fragment(
    article, render: Callable[[], tuple[str, frozenset[str]]]
) -> generations.Fragment:
    """A story's related stories in this edition, rendered, with the keys of what
    they show: dropped by any change."""
    key = f"fragments:related-keyed:{article.pk}:{_language()}"
    return generations.Fragment(
        key, PAGE_GENERATION_KEY, lambda: (render(), RELATED_SECONDS)
    )
