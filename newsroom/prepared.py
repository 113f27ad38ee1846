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
"""

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper


def fetch_one(
    connection: BaseDatabaseWrapper, name: str, sql: str, params: tuple
) -> tuple | None:
    """The first row of `sql` (with %s placeholders) run with `params`: on
    PostgreSQL as the prepared statement `name`, prepared on first use."""
    with connection.cursor() as cursor:  # connects (and checks health) first
        if connection.vendor == "postgresql" and settings.PREPARED_STATEMENTS:
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
