"""The page cache: anonymous readers' public pages served from the cache.

A news site's traffic comes in spikes when a story breaks; most readers then ask for
the same few pages. Every such page is kept in the cache (Redis in production, local
memory on the embedded default), stamped with the counters of its surrogate keys
(edge.keys: the stories, rows and lists it shows). Any editorial write sends its
domain event after commit (core.events, the `PUBLIC` group), which advances the
counters of the keys it touched (edge.purges), so no reader sees a page older than
the last change to what it shows, and every other page stays. Pages live no longer
than the next scheduled publication or embargo lift, so those appear on time with
no worker. Editors (anyone logged in), previews and the admin never touch the cache.

A page is kept under its path and the query parameters its view reads, which each
view declares as `query_parameters` (for function views, `reads_query()`); any other
parameter is dropped before the page is rendered, so `?x=1`, `?x=2`, … are one page
and cannot fill the cache. A route that declares nothing is not cached when asked
with a query string: what it reads is not known.

Under a WSGI server the hits a worker served in the last moments are answered in
front of Django's request handling, as the whole answer Django gave
(publishing/page_cache_wsgi.py, wrapped around the application in newsroom/wsgi.py).

`PAGE_CACHE=0` in the environment turns it off (benchmarks compare both).
"""

import hashlib
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from contextlib import suppress
from functools import lru_cache, wraps
from time import monotonic, time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Min, Q
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, set_response_etag

from core import generations
from edge.keys import EVERYTHING, page_keys

GENERATION_KEY = generations.register("page-cache:generation")
NEXT_CHANGE_KEY = "page-cache:next-change:{generation}"
# A page's surrogate keys (edge.keys), or None when its view marked none.
Keys = frozenset[str] | None
# Paths that are never public pages, or never the same for two readers.
# The partners' API answers each partner by its key, never from a shared page.
_NEVER = ("/admin/", "/i18n/", "/static/", "/media/", "/api/")


def generation() -> int:
    """The current generation of cached pages."""
    return generations.current(GENERATION_KEY)


def purge_pages(keys: Iterable[str] | None = None) -> None:
    """Drop every page carrying one of `keys` (None: every page).

    The generation moves too, before and after the keys: a page is stored only if
    it did not move while the page was rendered (so a change that committed
    meanwhile, whose keys may not be advanced yet, leaves it unstored), and a page
    stamped before the keys moved is never taken for fresh by the generation alone
    (`_fresh_page`). The fragments stamped with it (menus, related stories) go too.
    """
    keys = {EVERYTHING} if keys is None else set(keys)
    purge_shared(keys)
    recent_pages.clear(keys)


def purge_shared(keys: Iterable[str]) -> None:
    """What a purge tells every worker, through the shared cache (`purge_pages`
    also drops this worker's own copies)."""
    generations.advance(GENERATION_KEY)
    generations.advance_keys(keys)
    generations.advance(GENERATION_KEY)


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


def reads_query(*names: str) -> Callable[[Callable], Callable]:
    """Declare the query parameters a function view reads, as view classes do with
    `query_parameters`."""

    def decorator(view: Callable) -> Callable:
        # A wrapper, so a view from another package (Django's sitemaps) is not
        # changed for everyone who uses it.
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            return view(request, *args, **kwargs)

        wrapper.query_parameters = names
        return wrapper

    return decorator


@lru_cache(maxsize=1024)
def route_parameters(path_info: str) -> tuple[str, ...] | None:
    """The query parameters the view at `path_info` reads, sorted; None when it
    does not declare them or no view answers there."""
    # The middleware runs before URL resolution and before LocaleMiddleware, and
    # i18n_patterns' prefix only matches under the language it names. Resolving
    # costs more than a hit, hence the memo (one URLconf per process): the same
    # pages are asked for again and again.
    language = translation.get_language_from_path(path_info) or settings.LANGUAGE_CODE
    try:
        with translation.override(language):
            match = resolve(path_info)
    except Resolver404:
        return None
    return declared_parameters(match.func)


def keep_only(request, query: str) -> None:
    """Let the view see `query` as the request's query string (what `read_query`
    keeps of it)."""
    if request.META.get("QUERY_STRING", "") != query:
        request.META["QUERY_STRING"] = query
        # A cached_property on WSGI and ASGI requests: read again from
        # QUERY_STRING, decoded as Django decodes any query string.
        with suppress(AttributeError):
            del request.GET


def declared_parameters(view: Callable) -> tuple[str, ...] | None:
    """The query parameters a view (as routed) declares it reads, sorted; None
    when it does not say."""
    names = getattr(getattr(view, "view_class", view), "query_parameters", None)
    return None if names is None else tuple(sorted(set(names)))


def read_query(query: str, names: tuple[str, ...]) -> str:
    # The declared parameters as sent, in one order, each once with its last value
    # (the one request.GET.get() gives a view): any order and any other parameter
    # make the same key. Split by hand: parsing the whole query string into a
    # QueryDict cost more than the rest of a hit. A name spelled with escapes
    # ("%70age") is dropped like any unknown one; the view never sees it either.
    kept = {}
    for pair in query.split("&"):
        name = pair.partition("=")[0]
        if name in names:
            kept[name] = pair
    return "&".join(kept[name] for name in names if name in kept)


def _key(request, query: str) -> str:
    # The path as Django decoded it, not get_full_path(), whose escaping cost more
    # than the rest of a hit; its length keeps path and query string apart.
    path = request.path
    address = f"{request.get_host()} {len(path)} {path}{query}"
    return f"page-cache:keyed:{hashlib.sha256(address.encode()).hexdigest()}"


class RecentPages:
    """The pages one worker answered in the last moments, kept in its own memory.

    When a story breaks, thousands of readers ask one worker for the same page each
    second; each of them costing a round trip to Redis and a copy of the page over
    the wire is most of what a hit costs. A page is kept here at most
    PAGE_CACHE_LOCAL_SECONDS (and never past its own expiry), with its surrogate
    keys; a purge drops this worker's copies carrying its keys at once, and other
    workers' within that time, which is well inside the minute browsers already
    keep a page (max-age=60).

    Beside each page it keeps the whole answers the site gave for it (status,
    headers and body, as the WSGI server was handed them), which the WSGI
    application answers before Django's request handling runs
    (publishing/page_cache_wsgi.py); they live no longer than the page they came
    from, and a purge drops them with it.
    """

    def __init__(self, size: int = 256):
        self.size = size
        # key: (until, the pickled page, its surrogate keys or None: unmarked).
        self._pages: OrderedDict[str, tuple[float, bytes, Keys]] = OrderedDict()
        self._answers: OrderedDict[tuple, tuple[float, Any, Keys]] = OrderedDict()
        self._lock = threading.Lock()
        # Moves on every clear(): a page read or rendered before a purge in this
        # worker is not kept after it.
        self.epoch = 0

    def get(self, key: str) -> tuple[HttpResponse, float, Keys] | None:
        """The page kept under `key`, when (monotonic()) this copy expires and its
        surrogate keys."""
        with self._lock:
            entry = self._pages.get(key)
            if entry is None:
                return None
            if entry[0] <= monotonic():
                del self._pages[key]
                return None
            self._pages.move_to_end(key)
        # Every reader gets an object of their own: the outer middleware adds headers.
        return pickle.loads(entry[1]), entry[0], entry[2]

    def put(
        self,
        key: str,
        response: HttpResponse,
        expires_at: float,
        epoch: int,
        keys: Keys,
    ) -> float | None:
        """Keep `response` until `expires_at` (time()) or PAGE_CACHE_LOCAL_SECONDS
        from now, whichever comes first; returns that moment on monotonic()'s
        clock, or None when it is not kept."""
        seconds = min(settings.PAGE_CACHE_LOCAL_SECONDS, expires_at - time())
        if seconds <= 0:
            return None
        entry = (monotonic() + seconds, pickle.dumps(response), keys)
        with self._lock:
            if epoch != self.epoch:
                return None
            self._keep(self._pages, key, entry)
        return entry[0]

    def answer(self, key: tuple) -> Any | None:
        """The whole answer kept under `key` (page_cache_wsgi.py), if still fresh."""
        with self._lock:
            entry = self._answers.get(key)
            if entry is None:
                return None
            if entry[0] <= monotonic():
                del self._answers[key]
                return None
            self._answers.move_to_end(key)
        return entry[1]

    def keep_answer(
        self, key: tuple, answer: Any, until: float, epoch: int, keys: Keys
    ) -> None:
        """Keep a whole answer until `until` (monotonic()), unless a purge came
        since `epoch` was read; `keys`: those of the page it answers with."""
        with self._lock:
            if epoch == self.epoch and until > monotonic():
                self._keep(self._answers, key, (until, answer, keys))

    def _keep(self, entries: OrderedDict, key, entry) -> None:
        entries[key] = entry
        entries.move_to_end(key)
        while len(entries) > self.size:
            entries.popitem(last=False)

    def clear(self, keys: Iterable[str] | None = None) -> None:
        """Drop the pages and answers carrying one of `keys` (None: all of them),
        and those no key marks; nothing read before now is kept after."""
        keys = None if keys is None or EVERYTHING in keys else frozenset(keys)
        with self._lock:
            for entries in (self._pages, self._answers):
                if keys is None:
                    entries.clear()
                    continue
                for name in [
                    name
                    for name, (_until, _kept, held) in entries.items()
                    if held is None or not keys.isdisjoint(held)
                ]:
                    del entries[name]
            self.epoch += 1


recent_pages = RecentPages()


class PageCacheMiddleware:
    """Serves and stores anonymous readers' public pages (see the module docstring).

    Sits near the top of the middleware, before sessions and authentication: a
    request with a session cookie (every editor) is never served or stored, and a
    hit for a reader costs a cache read and nothing else. The stored response
    already carries the headers the inner middleware added (CSP, frame options).

    A page is stored stamped with the generation it was rendered in, the counters
    of its surrogate keys and its expiry (core/generations.py), under a key of its
    own address alone (the path and the query parameters its view reads), and read
    together with the generation in one round trip: a page of the current
    generation is fresh; one of an older generation is fresh while none of its
    keys has moved (a second round trip), and a miss otherwise, overwritten. A
    worker answers the pages it served in the last moments from its memory
    (RecentPages).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with generations.one_reading():
            if not _cacheable(request):
                return self.get_response(request)
            query = request.META.get("QUERY_STRING", "")
            if query:
                names = route_parameters(request.path_info)
                if names is None:
                    return self.get_response(request)
                query = read_query(query, names)
            return self._cached_response(request, query)

    def _cached_response(self, request, query):
        key = _key(request, query)
        epoch = recent_pages.epoch
        recent = recent_pages.get(key)
        if recent is not None:
            response, until, keys = recent
            return _hit(request, response, until, epoch, keys)
        # The page and every generation counter, in one round trip.
        stored = _fresh_page(generations.fetch([key]).get(key))
        if stored is not None:
            expires_at, response, keys = stored
            until = recent_pages.put(key, response, expires_at, epoch, keys)
            return _hit(request, response, until, epoch, keys)
        # Read before rendering, so a page rendered while a change committed is
        # stamped with the generation it began in: already stale.
        rendered_in = generation()
        # The view sees only what the key holds: a link built from the query
        # string (the language switch, {% querystring %}) must not carry one
        # reader's extra parameters into the page every reader is served.
        keep_only(request, query)
        response = self.get_response(request)
        if self._storable(request, response):
            timeout = page_timeout()
            if timeout > 0:
                # Caches outside (browsers, a CDN) hear of no purge: they keep a
                # page a minute at most, or less where the view says it changes
                # sooner (a live coverage's poll: `response.fresh_for`).
                fresh_for = getattr(response, "fresh_for", None) or timeout
                patch_cache_control(
                    response,
                    public=True,
                    max_age=min(60, fresh_for),
                    s_maxage=min(timeout, fresh_for),
                )
                # Stored with its ETag, so a hit is not hashed again on every answer.
                set_response_etag(response)
                response["X-Page-Cache"] = "miss"
                self._store(request, key, response, timeout, rendered_in, epoch)
        return response

    @staticmethod
    def _store(request, key, response, timeout: int, rendered_in: int, epoch: int):
        keys = frozenset(page_keys(request, response)) or None
        stamps = None
        if keys is not None:
            stamps = generations.key_stamps(
                keys, family=GENERATION_KEY, begun=rendered_in
            )
            if stamps is None:  # a change committed while it was rendered
                return
        entry = generations.stamp(
            GENERATION_KEY, (response, stamps), timeout, generation=rendered_in
        )
        recent_pages.put(key, response, entry[1], epoch, keys)
        cache.set(key, entry, timeout)

    @staticmethod
    def _storable(request, response) -> bool:
        control = response.get("Cache-Control", "")
        # A page carrying a CSP nonce would be replayed with another request's
        # header, and its inline script refused (core/security.py).
        nonce = getattr(request, "csp_nonce", None)
        return (
            not (nonce is not None and nonce.used)
            and response.status_code == 200
            and not response.streaming
            and not response.cookies
            and "private" not in control
            and "no-store" not in control
        )


# Where a hit tells the WSGI application (page_cache_wsgi.py) that the answer on its
# way out is a cached page's, kept in this worker until when, and since which purge.
HIT_MARK = "newsroom.page_cache.hit"


def _fresh_page(entry) -> tuple[float, HttpResponse, Keys] | None:
    """(expiry, page, keys) of a stored entry still fresh, or None."""
    if entry is None:
        return None
    generation, expires_at, (response, stamps) = entry
    if expires_at <= time():
        return None
    # Unmarked pages go with any change; others with a change to what they show.
    if generation != generations.current(GENERATION_KEY) and (
        stamps is None or not generations.keys_unchanged(stamps)
    ):
        return None
    return expires_at, response, None if stamps is None else frozenset(stamps)


def _hit(request, response, until: float | None, epoch: int, keys: Keys):
    response["X-Page-Cache"] = "hit"
    if until is not None:
        request.META[HIT_MARK] = (until, epoch, keys)
    return response
