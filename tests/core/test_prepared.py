"""Hot queries as PostgreSQL prepared statements (core/prepared.py)."""

import pytest
from django.db import connection

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
