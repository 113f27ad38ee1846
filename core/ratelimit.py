"""A small rate limiter on the Django cache: a fixed window of requests per user
(or per address when logged out) for each named scope in settings.RATE_LIMITS.

Fixed windows let a client send up to twice the limit across a window's edge; that
is good enough to keep one client from tying up the workers, which is the point.
With several workers the cache must be shared (Redis) for the count to be too.
While Redis is down the count falls back to each worker's own memory: a client then
gets the limit once per worker, which is looser, but a limit, not none.
"""

import time
from collections.abc import Callable
from functools import wraps

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .cache import shared_cache_down

PREFIX = "ratelimit"
# Each worker's own counters, for while the shared cache is unavailable.
_OWN_COUNTERS = LocMemCache("ratelimit-fallback", {"OPTIONS": {"MAX_ENTRIES": 10000}})


def counting_per_process() -> bool:
    """Whether the limits are counted per worker now (the shared cache is down)."""
    return shared_cache_down(cache)


def client_key(request: HttpRequest) -> str:
    """A logged-in user is counted as themself; anyone else by address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{get_client_ip_address(request) or '-'}"


def rate_limit_wait(
    *,
    scope: str,
    key: str,
    now: float | None = None,
    limit: tuple[int, int] | None = None,
) -> int:
    """Count one request of `key` in `scope`; the seconds to wait when it is over
    the limit, else 0. The limit (requests, window in seconds) is the scope's in
    settings.RATE_LIMITS, or `limit` for a client with one of its own (a partner)."""
    if not settings.RATE_LIMITS_ENABLED:
        return 0
    if limit is None:
        if scope not in settings.RATE_LIMITS:
            return 0
        limit = settings.RATE_LIMITS[scope]
    limit, window = limit
    now = time.time() if now is None else now
    start = int(now // window) * window
    counter = f"{PREFIX}:{scope}:{key}:{start}"
    count = _count(cache, counter, window)
    if count is None:  # the shared cache is down
        count = _count(_OWN_COUNTERS, counter, window)
    if count <= limit:
        return 0
    return max(1, int(start + window - now + 0.999))


def _count(store, counter: str, window: int) -> int | None:
    """One more request on `counter`; None when the shared cache failed."""
    # add() is atomic and a no-op when the counter exists; incr() is atomic too.
    store.add(counter, 0, timeout=window + 1)
    try:
        return store.incr(counter)
    except ValueError:
        if store is cache and counting_per_process():
            return None
        # The counter expired between add() and incr().
        store.add(counter, 1, timeout=window + 1)
        return 1


def too_many_requests(
    request: HttpRequest, wait: int, *, as_json: bool = False
) -> HttpResponse:
    """429 with Retry-After, as a page (or JSON for the admin's scripts)."""
    message = ngettext(
        "Too many requests from you in a short time. Please wait %(seconds)d "
        "second and try again.",
        "Too many requests from you in a short time. Please wait %(seconds)d "
        "seconds and try again.",
        wait,
    ) % {"seconds": wait}
    if as_json:
        response = JsonResponse({"fields": {}, "messages": [message]}, status=429)
    else:
        response = render(
            request,
            "429.html",
            {"message": message, "title": _("Too many requests")},
            status=429,
        )
    response["Retry-After"] = str(wait)
    return response


def rate_limited(
    scope: str, *, methods: tuple[str, ...] = ("GET", "POST"), as_json: bool = False
):
    """Decorate a view so requests over `scope`'s limit get a 429."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method in methods:
                wait = rate_limit_wait(scope=scope, key=client_key(request))
                if wait:
                    return too_many_requests(request, wait, as_json=as_json)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
