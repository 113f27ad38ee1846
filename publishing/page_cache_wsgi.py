"""Cached pages answered before Django's request handling.

A hit of the page cache middleware (publishing/page_cache.py) is cheap, but on its
way in and out a request still goes through Django's handler: the request object,
the request signals, five middleware before the page cache and the response's
conversion to what the WSGI server is handed. For a cached page all of that gives
the same answer every time, so this WSGI application keeps the *answer itself*:
the status, the headers and the body exactly as Django handed them to the server
for a page the middleware served from the cache. The next request that Django
would answer the same way gets that answer without Django.

Nothing is decided here that the site did not decide already:

- An answer is kept only after the page cache middleware said the page was a hit
  (`HIT_MARK`), and for no longer than this worker keeps the page itself
  (RecentPages: at most PAGE_CACHE_LOCAL_SECONDS, never past the page's expiry).
  A purge in this worker drops the answers at once, with the pages; one in another
  worker reaches this one within that time, as it does for the pages.
- An answer is kept under every request value the site's answer to a cached page
  depends on (`answer_key`): the method, the address (the path as sent, the host,
  the scheme and the proxy's word on it) and the query parameters the page cache
  keys the page by, and the conditional headers (so a 304 is answered as Django
  answered it). The only header that differs from one request to the next, the
  request id, is made afresh for each (core/logs.py).
- What the page cache never serves goes to Django: any method but GET and HEAD,
  a request carrying a session cookie (every editor), a query string holding a
  NUL (the site answers 404) or asked of a page that does not say what it reads.
  Previews, searches and the admin never reach the page cache's hits, so no
  answer is ever kept for them.
- The middleware in front of the page cache is checked at start: the answers
  hold what they add (request id aside), so they are only kept while it is the
  middleware listed in OUTER_MIDDLEWARE, each of which depends on nothing else of
  the request. Put another one in front of the page cache and this turns itself
  off (with a warning) until it is checked and listed here.
"""

import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.handlers.wsgi import get_path_info

from core.logs import HEADER as REQUEST_ID_HEADER
from core.logs import request_id

from .page_cache import HIT_MARK, read_query, recent_pages, route_parameters

logger = logging.getLogger(__name__)

PAGE_CACHE_MIDDLEWARE = "publishing.page_cache.PageCacheMiddleware"
# What runs in front of the page cache, and what of the request it reads: the
# request id (made afresh for each answer); the scheme and path (the redirect to
# HTTPS, HSTS); the path and query string (a NUL answers 404); the method and the
# conditional headers (304); the path (the policy of public pages or the admin's);
# nothing (the surrogate keys, read from the answer itself).
OUTER_MIDDLEWARE = (
    "core.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.RefuseNulMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",
    "core.security.SecurityHeadersMiddleware",
    "edge.middleware.SurrogateKeysMiddleware",
)
# The request values an answer is kept under, besides the method and the query
# parameters the page is cached by. What Django's request reads of the address
# (get_script_name, get_path_info, get_host, scheme) and the conditional headers.
ANSWER_DEPENDS_ON = (
    "PATH_INFO",
    "SCRIPT_NAME",
    "SCRIPT_URL",
    "REDIRECT_URL",
    "HTTP_HOST",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "SERVER_NAME",
    "SERVER_PORT",
    "wsgi.url_scheme",
    "HTTP_IF_MATCH",
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_UNMODIFIED_SINCE",
)


@dataclass(frozen=True)
class Answer:
    """What Django handed the WSGI server for one cached page."""

    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    # Where the request id is among the headers (-1: nowhere).
    request_id_at: int

    @classmethod
    def of(cls, status: str, headers: list[tuple[str, str]], body: bytes) -> "Answer":
        names = [name.lower() for name, _value in headers]
        header = REQUEST_ID_HEADER.lower()
        at = names.index(header) if header in names else -1
        return cls(status, tuple(headers), body, at)

    def send(self, environ: dict, start_response) -> list[bytes]:
        headers = list(self.headers)
        if self.request_id_at >= 0:
            headers[self.request_id_at] = (REQUEST_ID_HEADER, request_id(environ))
        start_response(self.status, headers)
        return [self.body]


def outer_middleware_checked() -> bool:
    """Whether what runs in front of the page cache is OUTER_MIDDLEWARE."""
    middleware = list(settings.MIDDLEWARE)
    if PAGE_CACHE_MIDDLEWARE not in middleware:
        return False
    return tuple(middleware[: middleware.index(PAGE_CACHE_MIDDLEWARE)]) == (
        OUTER_MIDDLEWARE
    )


def answer_key(environ: dict, depends_on: tuple[str, ...]) -> tuple | None:
    """What the site's answer to this request depends on if the page cache serves
    it; None when the page cache would not (Django then answers)."""
    method = environ.get("REQUEST_METHOD")
    if method not in ("GET", "HEAD") or not settings.PAGE_CACHE:
        return None
    cookies = environ.get("HTTP_COOKIE")
    # Any mention of the session cookie's name sends the request to Django, which
    # reads the cookies properly: an editor is never answered here.
    if cookies and settings.SESSION_COOKIE_NAME in cookies:
        return None
    query = environ.get("QUERY_STRING", "")
    if query:
        # A NUL, as sent or escaped, in any parameter: the site answers 404.
        if "%00" in query or "\x00" in query:
            return None
        names = route_parameters(get_path_info(environ))
        if names is None:
            return None
        query = read_query(query, names)
    return (method, query, *[environ.get(name) for name in depends_on])


class PageCacheApplication:
    """The site's WSGI application with cached pages answered in front of it (see
    the module docstring): `application = PageCacheApplication(get_wsgi_application())`.
    """

    def __init__(self, application):
        self.application = application
        self.enabled = outer_middleware_checked()
        if not self.enabled:
            logger.warning(
                "Cached pages are answered through Django's middleware only: the "
                "middleware in front of the page cache is not the one checked in "
                "publishing/page_cache_wsgi.py (OUTER_MIDDLEWARE)."
            )
        proxy_header = settings.SECURE_PROXY_SSL_HEADER or ()
        # The proxy's word on the scheme, when the site trusts one.
        self.depends_on = (*ANSWER_DEPENDS_ON, *proxy_header[:1])

    def __call__(self, environ, start_response):
        key = answer_key(environ, self.depends_on) if self.enabled else None
        if key is None:
            return self.application(environ, start_response)
        answer = recent_pages.answer(key)
        if answer is not None:
            return answer.send(environ, start_response)
        return self._answered_by_django(environ, start_response, key)

    def _answered_by_django(self, environ, start_response, key: tuple):
        """Django's answer, kept when it was a cached page's."""
        started = []

        def start(status, headers, exc_info=None):
            started[:] = [status, headers]
            return start_response(status, headers, exc_info)

        result = self.application(environ, start)
        mark = environ.get(HIT_MARK)
        if mark is None or not started or started[0][:3] not in ("200", "304"):
            return result
        try:
            body = b"".join(result)
        finally:
            # Django's end of the request (request_finished), as the server would.
            result.close()
        until, epoch, keys = mark
        status, headers = started
        answer = Answer.of(status, headers, body)
        recent_pages.keep_answer(key, answer, until, epoch, keys)
        return [body]
