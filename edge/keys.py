"""Surrogate keys: the names a cached page is purged by.

A page carries the key of each row it shows (`key_of`: "article-12",
"section-3") and of the family of lists it belongs to (`HOME`, `FEEDS`…); a change
purges the keys of what it touched (edge.purges). Views declare their keys on
the response (`mark`); what the frame of every page shows (the breaking banner)
declares its keys on the request (`shown`). The page cache stamps a page with
them (publishing.page_cache) and edge.middleware writes them in the header the
edge reads.
"""

from collections.abc import Callable, Iterable
from functools import wraps

from django.db import models
from django.http import HttpRequest, HttpResponse

from articles.models import Article

# Every public page: purged when nothing narrower is known.
EVERYTHING = "all"
# Families of pages that list stories: a story published, moved or gone changes
# them, whether or not it was on them when they were cached.
HOME = "home"
LISTS = "lists"
FEEDS = "feeds"
SITEMAPS = "sitemaps"
SEARCH = "search"
# Every page framed by the site's navigation, which shows the breaking banner: a
# breaking story published or changed may put itself there.
BANNER = "banner"


def key_of(row: models.Model | type[models.Model], pk: object = None) -> str:
    """The key of one row: its model's name and its primary key."""
    return f"{row._meta.model_name}-{row.pk if pk is None else pk}"


def key_of_story(pk: object) -> str:
    """The key of the story with primary key `pk`."""
    return key_of(Article, pk)


def mark(response: HttpResponse, keys: Iterable[str]) -> HttpResponse:
    """Add `keys` to those `response` is purged by."""
    held = getattr(response, "edge_keys", None)
    if held is None:
        held = response.edge_keys = {EVERYTHING}
    held.update(keys)
    return response


def marked(*keys: str) -> Callable[[Callable], Callable]:
    """A view decorator: every response of the view is marked with `keys`."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            return mark(view(request, *args, **kwargs), keys)

        return wrapper

    return decorator


def shown(request: HttpRequest | None, keys: Iterable[str]) -> None:
    """Add `keys` to those of the page answering `request`: for what a part of
    every page shows, rendered where no view's response is at hand."""
    if request is None:  # rendered for no page (a message, a document)
        return
    held = getattr(request, "edge_keys", None)
    if held is None:
        held = request.edge_keys = set()
    held.update(keys)


def page_keys(request: HttpRequest, response: HttpResponse) -> set[str]:
    """Every key of the page: the response's, with what its frame showed (`shown`).
    None marked by the view: none at all (the page is not known to show rows)."""
    if not hasattr(response, "edge_keys"):
        return set()
    return mark(response, getattr(request, "edge_keys", ())).edge_keys
