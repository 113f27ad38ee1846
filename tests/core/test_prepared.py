"""Hot queries as PostgreSQL prepared statements (core/prepared.py)."""

import pytest
from django.db import OperationalError, connection, connections

from core.prepared import fetch_one, statement_name

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's"
)

SQL = "SELECT %s + 1, 'a%%b'"


def prepared_names() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements ORDER BY name")
        return [name for (name,) in cursor.fetchall()]


def test_a_prepared_query_returns_what_the_query_returns():
    """Parameters and a literal percent sign read as they would unprepared."""
    assert fetch_one(connection, "test_plus_one", SQL, (41,)) == (42, "a%b")
    assert fetch_one(connection, "test_plus_one", SQL, (1,)) == (2, "a%b")


@postgres_only
def test_a_statement_is_prepared_once_per_connection(django_assert_num_queries):
    """Once prepared, each call is one statement; the preparing is not a query of
    the request that first needs it."""
    with django_assert_num_queries(1):
        fetch_one(connection, "test_once", SQL, (1,))
    with django_assert_num_queries(1):
        fetch_one(connection, "test_once", SQL, (2,))
    assert statement_name("test_once", SQL) in prepared_names()


@postgres_only
@pytest.mark.django_db(transaction=True)  # the connection is closed mid-test
def test_a_new_connection_prepares_again():
    """A reconnect (a restarted server, an aged-out connection) loses nothing."""
    fetch_one(connection, "test_again", SQL, (1,))
    connection.close()
    assert fetch_one(connection, "test_again", SQL, (2,)) == (3, "a%b")


@postgres_only
def test_nothing_is_prepared_when_turned_off(settings):
    """DATABASE_PREPARED_STATEMENTS=0 (PgBouncer in transaction mode) sends the SQL
    as it is."""
    settings.PREPARED_STATEMENTS = False
    assert fetch_one(connection, "test_off", SQL, (1,)) == (2, "a%b")
    assert statement_name("test_off", SQL) not in prepared_names()


@postgres_only
def test_two_sql_texts_under_one_name_are_two_statements():
    """Old and new code sharing a server (a rolling deploy) each run their own SQL:
    one base name with two texts prepares two statements, and each answers."""
    old, new = "SELECT %s + 1", "SELECT %s + 2"
    assert statement_name("test_deploy", old) != statement_name("test_deploy", new)
    assert fetch_one(connection, "test_deploy", old, (1,)) == (2,)
    assert fetch_one(connection, "test_deploy", new, (1,)) == (3,)
    assert fetch_one(connection, "test_deploy", old, (1,)) == (2,)
    prepared = [name for name in prepared_names() if name.startswith("test_deploy")]
    assert sorted(prepared) == sorted(
        [statement_name("test_deploy", old), statement_name("test_deploy", new)]
    )


def test_a_name_too_long_to_keep_its_hash_is_refused():
    """PostgreSQL would cut a long name, hash and all, so it is refused at once."""
    with pytest.raises(ValueError):
        statement_name("x" * 51, SQL)


def terminate_backend() -> None:
    """What a restart of the server does to this connection: cut it."""
    pid = connection.connection.info.backend_pid
    with connections["replica"].cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


def a_new_request() -> None:
    """What Django does at each request's start: the health check is due again."""
    connection.close_if_unusable_or_obsolete()


@postgres_only
@pytest.mark.django_db(transaction=True, databases=["default", "replica"])
def test_a_connection_the_server_dropped_is_replaced_by_the_query_itself():
    """With health checks on, the first query of a request on a dropped connection
    is run again on a new one, instead of failing."""
    fetch_one(connection, "test_dropped", SQL, (1,))
    a_new_request()
    terminate_backend()
    assert fetch_one(connection, "test_dropped", SQL, (2,)) == (3, "a%b")


@postgres_only
@pytest.mark.django_db(transaction=True, databases=["default", "replica"])
def test_a_statement_not_yet_prepared_on_a_dropped_connection_is_run_again():
    """The connection may be cut before the statement was ever prepared on it."""
    fetch_one(connection, "test_other", SQL, (1,))
    a_new_request()
    terminate_backend()
    assert fetch_one(connection, "test_never_prepared", SQL, (2,)) == (3, "a%b")


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_query_stands_in_for_the_health_check(monkeypatch):
    """A healthy connection is not sent Django's `SELECT 1` before the query."""
    fetch_one(connection, "test_checked", SQL, (1,))
    a_new_request()
    assert connection.health_check_enabled
    monkeypatch.setattr(
        connection, "is_usable", lambda: pytest.fail("a separate health check")
    )
    assert fetch_one(connection, "test_checked", SQL, (2,)) == (3, "a%b")
    assert connection.health_check_done


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_failing_query_on_a_live_connection_is_not_run_again():
    """An error of the query itself (the connection answers) is raised as it is."""
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 10")
    a_new_request()
    try:
        with pytest.raises(OperationalError, match="statement timeout"):
            fetch_one(connection, "test_slow", "SELECT pg_sleep(%s)", (1,))
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET statement_timeout")
