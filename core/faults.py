"""Answers for a bad day: the health probe, and a clean page while the database is
away.

While PostgreSQL restarts, requests that need it fail with OperationalError (or
InterfaceError on a connection that died under them). Readers then get a plain
"back in a moment" page with status 503 and Retry-After instead of a server error;
pages already in the page cache keep being served, since serving them needs no
database. Django reconnects by itself once the server is back (CONN_HEALTH_CHECKS).
Long-running commands (the sweeps) go on through an outage (`run_every`).
"""

import logging
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from django.core.cache import cache
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    connection,
    connections,
)
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults
from django.views.decorators.cache import never_cache

from .db_router import replica_state
from .logs import Throttle

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
    replica = replica_state(fresh=True).status
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
            # Lagging or unavailable: readers read the primary meanwhile.
            "replica": replica,
        },
        status=200 if database else 503,
    )


def run_every(
    seconds: float,
    work: Callable[[], object],
    *,
    name: str,
    rounds: int | None = None,
    sleep: Callable[[float], object] = time.sleep,
    report_every: float = 60,
) -> None:
    """Run `work` every `seconds` for good (`rounds` times, for a test), living
    through outages: a round that fails (the database restarting, Redis away) is
    logged with its traceback once per `report_every` seconds, the database
    connections are dropped so the next round reconnects, and the next round
    comes after 1 s, then 2, 4… up to `seconds`, so work resumes soon after the
    outage ends without hammering meanwhile. A long-running command that
    exited on the first outage would stay dead until someone noticed."""
    failures = Throttle(report_every)
    backoff = 0.0
    done = 0
    while rounds is None or done < rounds:
        done += 1
        try:
            work()
        except Exception as error:
            connections.close_all()
            backoff = min(backoff * 2 or 1, seconds)
            admitted, held = failures.admit(type(error).__name__)
            if admitted:
                logger.exception(
                    "%s: a round failed (%s more since the last report); "
                    "trying again in %s s",
                    name,
                    held,
                    backoff,
                )
        else:
            if backoff:
                logger.warning("%s: working again", name)
            backoff = 0.0
        # The container's health check reads the file's age: the loop is alive.
        alive_file(name).touch()
        if rounds is None or done < rounds:
            sleep(backoff or seconds)


def alive_file(name: str) -> Path:
    """The file `run_every` touches after each round of the command `name`."""
    return Path(tempfile.gettempdir()) / f"{name}.alive"
