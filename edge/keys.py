"""Surrogate keys: the names a cached page is purged by.

A page carries the key of each row it shows (`key_of`: "article-12",
"section-3") and of the family of lists it belongs to (`HOME`, `FEEDS`…); a change
purges the keys of what it touched (edge.purges). Views declare their keys on
the response (`mark`); edge.middleware writes them in the header the edge reads.
"""

from collections.abc import Callable, Iterable
from functools import wraps

from django.db import models
from django.http import HttpResponse

# Every public page: purged when nothing narrower is known.
EVERYTHING = "all"
# Families of pages that list stories: a story published, moved or gone changes
# them, whether or not it was on them when they were cached.
HOME = "home"
LISTS = "lists"
FEEDS = "feeds"
SITEMAPS = "sitemaps"
SEARCH = "search"


def key_of(row: models.Model | type[models.Model], pk: object = None) -> str:
    """The key of one row: its model's name and its primary key."""
    return f"{row._meta.model_name}-{row.pk if pk is None else pk}"


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


def keys_of(response: HttpResponse) -> set[str]:
    """The keys `response` was marked with (none: not marked)."""
    return set(getattr(response, "edge_keys", ()))
