"""Read replicas: anonymous readers' page reads go to the `replica` database.

Set DATABASE_REPLICA_URL (a PostgreSQL streaming replica of DATABASE_URL) and the
settings add a `replica` alias and this router. Only reads made while serving a
public page to an anonymous reader use it (ReplicaReadsMiddleware marks them); the
admin, editors' requests, previews, commands, every write and anything inside a
transaction stay on `default`, so editors always read what they just saved. A
replica a moment behind only delays a reader's page as much as the page cache does;
one further behind than DATABASE_REPLICA_MAX_LAG seconds, or down, is left aside
(`replica_state`, checked at most once a second per process, logged when it
changes, said by /healthz) and readers read the primary until it is back.
"""

import logging
import time
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connections

logger = logging.getLogger(__name__)

REPLICA = "replica"
_ROUTER = "core.db_router.ReplicaRouter"
# How long one reading of the replica's state is trusted, per process.
_CHECK_SECONDS = 1.0
# Seconds the replica's replay is behind what it has received from the primary
# (0 when it has replayed everything: an idle primary sends nothing to replay).
_LAG_SQL = (
    "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0"
    " ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)"
    " END"
)
_public_read: ContextVar[bool] = ContextVar("public_read", default=False)
# Paths that are never an anonymous reader's public page.
_PRIVATE = ("/admin/", "/i18n/")


class ReplicaRouter:
    """Sends public reads to the replica when one is configured (see module doc)."""

    def db_for_read(self, model, **hints):
        if (
            _public_read.get()
            and REPLICA in settings.DATABASES
            and not connections["default"].in_atomic_block
        ):
            return REPLICA
        return "default"

    def db_for_write(self, model, **hints):
        return "default"

    def allow_relation(self, obj1, obj2, **hints):
        # The replica holds the same rows as the primary.
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == "default"


def is_public_read(request) -> bool:
    """An anonymous reader's GET of a public page (never the admin or a preview)."""
    if request.method not in ("GET", "HEAD"):
        return False
    path = request.path
    if path.startswith(_PRIVATE) or "/preview/" in path:
        return False
    # Without a session cookie nobody is logged in: answered without loading the
    # (empty) session and the anonymous user for every reader's page.
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return True
    user = getattr(request, "user", None)
    return not (user is not None and user.is_authenticated)


@dataclass(frozen=True)
class ReplicaState:
    """Whether readers may read the replica now, and why not."""

    usable: bool
    # "ok", "lagging" or "unavailable"; "none" without a replica.
    status: str
    lag: float | None = None


_NO_REPLICA = ReplicaState(False, "none")
_known: dict[str, object] = {"state": None, "at": 0.0}


def replica_state(*, fresh: bool = False) -> ReplicaState:
    """The replica's state, read again when older than a second (or `fresh`)."""
    if REPLICA not in settings.DATABASES or _ROUTER not in settings.DATABASE_ROUTERS:
        return _NO_REPLICA
    now = time.monotonic()
    state = _known["state"]
    if fresh or state is None or now - _known["at"] > _CHECK_SECONDS:
        previous = None if state is None else state.status
        state = _read_state()
        if state.status != previous and (previous, state.status) != (None, "ok"):
            _log_change(state)
        _known.update(state=state, at=now)
    return state


def _read_state() -> ReplicaState:
    try:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute(_LAG_SQL)
            lag = float(cursor.fetchone()[0] or 0)
    except DatabaseError:
        # A broken connection is not reused: the next check connects again.
        connections[REPLICA].close()
        return ReplicaState(False, "unavailable")
    if lag > settings.DATABASE_REPLICA_MAX_LAG:
        return ReplicaState(False, "lagging", lag)
    return ReplicaState(True, "ok", lag)


def _log_change(state: ReplicaState) -> None:
    if state.status == "ok":
        logger.warning(
            "The replica is back (%.1f s behind): readers read it.", state.lag
        )
    elif state.status == "lagging":
        logger.warning(
            "The replica is %.1f s behind (over %s s): readers read the primary.",
            state.lag,
            settings.DATABASE_REPLICA_MAX_LAG,
        )
    else:
        logger.error("The replica is unavailable: readers read the primary.")


class ReplicaReadsMiddleware:
    """Marks the reads of a public request as replica reads (after authentication),
    while the replica is usable."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_public_read(request) or not replica_state().usable:
            return self.get_response(request)
        token = _public_read.set(True)
        try:
            return self.get_response(request)
        finally:
            _public_read.reset(token)
