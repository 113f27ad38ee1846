"""Answers for a bad day: the health probe, and a clean page while the database is
away.

While PostgreSQL restarts, requests that need it fail with OperationalError (or
InterfaceError on a connection that died under them). Readers then get a plain
"back in a moment" page with status 503 and Retry-After instead of a server error;
pages already in the page cache keep being served, since serving them needs no
database. Django reconnects by itself once the server is back (CONN_HEALTH_CHECKS).
"""

import logging
import sys
import uuid

from django.core.cache import cache
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults
from django.views.decorators.cache import never_cache

logger = logging.getLogger(__name__)

DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30


def database_unavailable() -> HttpResponse:
    """The 503 page: rendered without the database (no context processors)."""
    response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def server_error(request, template_name: str = defaults.ERROR_500_TEMPLATE_NAME):
    """handler500: a database outage is 503 and a plain page; anything else, 500.

    Django calls this while the exception is being handled, so it is still in
    sys.exc_info(), whether it came from a view or a middleware (a session read).
    """
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return database_unavailable()
    return defaults.server_error(request, template_name)


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        logger.warning("Health check: database unavailable.", exc_info=True)
        return False


def _cache_ok() -> bool:
    ping = getattr(cache, "ping", None)
    if ping is not None:  # Redis: ask it, even while the site is skipping it
        return ping()
    key = f"healthz:{uuid.uuid4().hex}"
    cache.set(key, 1, 10)
    answered = cache.get(key) == 1
    cache.delete(key)
    return answered


@never_cache
def healthz(request) -> JsonResponse:
    """For the orchestrator: 200 while the site can serve, 503 without a database.

    A missing cache makes the site slower, not unavailable, so it reports
    "degraded" with 200: taking every worker out of rotation would be worse.
    Only "ok"/"unavailable" are said, never why (that goes to the log).
    """
    database = _database_ok()
    cache_up = _cache_ok()
    if not database:
        status = "unavailable"
    elif not cache_up:
        status = "degraded"
    else:
        status = "ok"
    return JsonResponse(
        {
            "status": status,
            "database": "ok" if database else "unavailable",
            "cache": "ok" if cache_up else "unavailable",
            # Without the shared cache, each worker counts requests on its own.
            "rate_limits": "shared" if cache_up else "per-process",
        },
        status=200 if database else 503,
    )
