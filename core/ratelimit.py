"""A small rate limiter on the Django cache: a fixed window of requests per user
(or per address when logged out) for each named scope in settings.RATE_LIMITS.

Fixed windows let a client send up to twice the limit across a window's edge; that
is good enough to keep one client from tying up the workers, which is the point.
With several workers the cache must be shared (Redis) for the count to be too.
"""

import time
from collections.abc import Callable
from functools import wraps

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

PREFIX = "ratelimit"


def client_key(request: HttpRequest) -> str:
    """A logged-in user is counted as themself; anyone else by address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{get_client_ip_address(request) or '-'}"


def rate_limit_wait(*, scope: str, key: str, now: float | None = None) -> int:
    """Count one request of `key` in `scope`; the seconds to wait when it is over
    the limit, else 0."""
    if not settings.RATE_LIMITS_ENABLED or scope not in settings.RATE_LIMITS:
        return 0
    limit, window = settings.RATE_LIMITS[scope]
    now = time.time() if now is None else now
    start = int(now // window) * window
    counter = f"{PREFIX}:{scope}:{key}:{start}"
    # add() is atomic and a no-op when the counter exists; incr() is atomic too.
    cache.add(counter, 0, timeout=window + 1)
    try:
        count = cache.incr(counter)
    except ValueError:  # expired between add() and incr()
        cache.add(counter, 1, timeout=window + 1)
        count = 1
    if count <= limit:
        return 0
    return max(1, int(start + window - now + 0.999))


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
