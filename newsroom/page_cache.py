"""The page cache: anonymous readers' public pages served from the cache.

A news site's traffic comes in spikes when a story breaks; most readers then ask for
the same few pages. Every such page is kept in the cache (Redis in production, local
memory on the embedded default) under the current *generation*. Any editorial write
announces itself after commit (`audit.signals.content_changed`), which starts a new
generation, so no reader sees a page older than the last change. Pages live no longer
than the next scheduled publication or embargo lift, so those appear on time with
no worker. Editors (anyone logged in), previews and the admin never touch the cache.

`PAGE_CACHE=0` in the environment turns it off (benchmarks compare both).
"""

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.db.models import Min, Q
from django.dispatch import receiver
from django.utils import timezone
from django.utils.cache import patch_cache_control, set_response_etag

from audit.signals import content_changed

GENERATION_KEY = "page-cache:generation"
NEXT_CHANGE_KEY = "page-cache:next-change:{generation}"
# Paths that are never public pages, or never the same for two readers.
_NEVER = ("/admin/", "/i18n/", "/static/", "/media/")


def generation() -> int:
    """The current generation of cached pages."""
    return cache.get_or_set(GENERATION_KEY, 1, None)


def purge_pages() -> None:
    """Start a new generation: every page is rendered afresh from now on."""
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:  # no generation yet, or it was evicted
        cache.set(GENERATION_KEY, 2, None)


@receiver(content_changed)
def purge_on_change(sender, **kwargs) -> None:
    """Any committed editorial change may show on any page (menus, lists, feeds)."""
    purge_pages()


def seconds_to_next_change(now=None) -> int | None:
    """Seconds until a scheduled story goes live or an embargo lifts, if any."""
    from articles.models import Article, Status

    now = now or timezone.now()
    key = NEXT_CHANGE_KEY.format(generation=generation())
    moment = cache.get(key)
    if moment is None:
        upcoming = Article.objects.filter(status=Status.PUBLISHED).aggregate(
            live=Min("published_at", filter=Q(published_at__gt=now)),
            lift=Min("embargo_until", filter=Q(embargo_until__gt=now)),
        )
        moments = [m for m in upcoming.values() if m is not None]
        moment = min(moments).timestamp() if moments else 0
        cache.set(key, moment, settings.PAGE_CACHE_SECONDS)
    if not moment:
        return None
    return max(0, int(moment - now.timestamp()))


def page_timeout() -> int:
    """How long a page may be kept: the setting, cut short by the next change."""
    timeout = settings.PAGE_CACHE_SECONDS
    until = seconds_to_next_change()
    return timeout if until is None else min(timeout, until)


def _cacheable(request) -> bool:
    if not settings.PAGE_CACHE or request.method not in ("GET", "HEAD"):
        return False
    path = request.path
    # Previews are private; searches are endless in number and would crowd the
    # cache out of the pages many readers share.
    if path.startswith(_NEVER) or "/preview/" in path or "/search/" in path:
        return False
    # Editors carry a session cookie; readers do not. The cookie is checked rather
    # than the user, so a cached page is answered before sessions are read.
    return settings.SESSION_COOKIE_NAME not in request.COOKIES


def _key(request) -> str:
    address = f"{request.get_host()}{request.get_full_path()}"
    digest = hashlib.sha256(address.encode()).hexdigest()
    return f"page-cache:{generation()}:{digest}"


class PageCacheMiddleware:
    """Serves and stores anonymous readers' public pages (see the module docstring).

    Sits near the top of the middleware, before sessions and authentication: a
    request with a session cookie (every editor) is never served or stored, and a
    hit for a reader costs a cache read and nothing else. The stored response
    already carries the headers the inner middleware added (CSP, frame options).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not _cacheable(request):
            return self.get_response(request)
        key = _key(request)
        response = cache.get(key)
        if response is not None:
            response["X-Page-Cache"] = "hit"
            return response
        response = self.get_response(request)
        if self._storable(response):
            timeout = page_timeout()
            if timeout > 0:
                patch_cache_control(response, public=True, max_age=60, s_maxage=timeout)
                # Stored with its ETag, so a hit is not hashed again on every answer.
                set_response_etag(response)
                response["X-Page-Cache"] = "miss"
                cache.set(key, response, timeout)
        return response

    @staticmethod
    def _storable(response) -> bool:
        control = response.get("Cache-Control", "")
        return (
            response.status_code == 200
            and not response.streaming
            and not response.cookies
            and "private" not in control
            and "no-store" not in control
        )
