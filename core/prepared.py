"""The hottest queries as PostgreSQL prepared statements.

PostgreSQL plans every statement it is sent. For the article page's gate (one story
by primary key, read on every request) planning took longer than running it: the
story table's indexes all have to be weighed, ~0.12 of the query's 0.2 ms. A
prepared statement is planned once per connection and then run from its plan.

A statement is prepared the first time a connection runs it, through the raw
cursor, as Django sets up a connection's time zone: setup, not a query of the
request. Prepared statements last as long as the connection and outlive a rolled-back
transaction; a new connection prepares again.

Behind PgBouncer in transaction mode consecutive statements may reach different
server connections, and a prepared statement would be missing: set
DATABASE_PREPARED_STATEMENTS=0 there. Other databases run the SQL as it is.

A statement's name ends with a short hash of its SQL: when old and new code share a
server during a rolling deploy (a pooler hands one server connection to both), each
finds its own statement under its own name, never the other's.

The statement is also the connection's health check. With CONN_HEALTH_CHECKS Django
sends `SELECT 1` before the first query of each request, so that a connection the
server dropped (a restart) is replaced rather than failing; for the article page
that was a round trip as long as the page's own query. A statement run here when
that check is due stands in for it: it is run at once and, if it fails and the
connection no longer answers, run again once on a new connection. Only outside a
transaction, where a read can be repeated without anything else lost.
"""

import hashlib
from functools import lru_cache

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper


@lru_cache(maxsize=64)
def statement_name(name: str, sql: str) -> str:
    """`name` with a short hash of `sql`: one name for one SQL text."""
    # PostgreSQL cuts names at 63 bytes, which would cut the hash off.
    if len(name) > 50:
        raise ValueError(f"a statement name of at most 50 characters: {name!r}")
    # Memoized: the hot callers pass the same SQL string again and again.
    digest = hashlib.sha256(sql.encode()).hexdigest()[:12]
    return f"{name}_{digest}"


def fetch_one(
    connection: BaseDatabaseWrapper, name: str, sql: str, params: tuple
) -> tuple | None:
    """The first row of `sql` (with %s placeholders) run with `params`: on
    PostgreSQL as a prepared statement named after `name` and the SQL (see
    statement_name()), prepared on first use. When the connection's health check
    is due, this query is the check (see the module docstring)."""
    if not _health_check_due(connection):
        return _fetch_one(connection, name, sql, params)
    connection.health_check_done = True
    try:
        return _fetch_one(connection, name, sql, params)
    except (InterfaceError, OperationalError):
        if connection.is_usable():
            raise  # the query failed, not the connection
        connection.close()
    return _fetch_one(connection, name, sql, params)


def _health_check_due(connection: BaseDatabaseWrapper) -> bool:
    # What Django's close_if_health_check_failed() reads, and no transaction open.
    return (
        connection.connection is not None
        and connection.health_check_enabled
        and not connection.health_check_done
        and connection.get_autocommit()
        and not connection.in_atomic_block
    )


def _fetch_one(connection, name, sql, params):
    with connection.cursor() as cursor:  # connects (and checks health) if due
        if connection.vendor == "postgresql" and settings.PREPARED_STATEMENTS:
            name = statement_name(name, sql)
            _prepare(connection, name, sql, len(params))
            placeholders = ", ".join(["%s"] * len(params))
            sql = f"EXECUTE {name}({placeholders})"
        cursor.execute(sql, params)
        return cursor.fetchone()


def _prepare(connection: BaseDatabaseWrapper, name: str, sql: str, count: int) -> None:
    raw = connection.connection
    on, names = getattr(connection, "_prepared_statements", (None, set()))
    if on is not raw:  # a new connection: nothing is prepared on it yet
        names = set()
        connection._prepared_statements = (raw, names)
    if name in names:
        return
    # Python's own formatting reads %s and %% exactly as the driver does.
    numbered = sql % tuple(f"${number}" for number in range(1, count + 1))
    # Wrapped as Django wraps its own queries: a dropped connection raises Django's
    # OperationalError here too.
    with connection.wrap_database_errors, raw.cursor() as cursor:
        cursor.execute(f"PREPARE {name} AS {numbered}")
    names.add(name)
