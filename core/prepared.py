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
"""

import hashlib
from functools import lru_cache

from django.conf import settings
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
    statement_name()), prepared on first use."""
    with connection.cursor() as cursor:  # connects (and checks health) first
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
    with raw.cursor() as cursor:
        cursor.execute(f"PREPARE {name} AS {numbered}")
    names.add(name)
