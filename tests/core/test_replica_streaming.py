"""A real streaming replica (tests/postgres_pair.py: a second PostgreSQL made by
pg_basebackup) behind DATABASE_REPLICA_URL, with the site served by its own
process: anonymous readers read the replica, editors the primary, and a replica
that lags or is down is left aside, said by /healthz.

Without PostgreSQL's binaries the tests are skipped, unless REQUIRE_REPLICA=1
(set by .ci/run).
"""

import time

import pytest

from tests.served import Site, postgres_pair, served

MAX_LAG = 3


@pytest.fixture(scope="module")
def site():
    pair = postgres_pair()
    try:
        with served(
            pair,
            DATABASE_REPLICA_URL=pair.replica_url,
            DATABASE_REPLICA_MAX_LAG=str(MAX_LAG),
        ) as site:
            yield site
    finally:
        pair.stop()


EDITOR_SESSION = """
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import get_user_model
editor = get_user_model().objects.get(username="editor")
session = import_module(settings.SESSION_ENGINE).SessionStore()
session[SESSION_KEY] = str(editor.pk)
session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
session[HASH_SESSION_KEY] = editor.get_session_auth_hash()
session.save()
print(session.session_key)
"""


def wait_for(condition, within: float = 20) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.2)


def replayed(site: Site) -> bool:
    """Whether the replica has replayed all the primary has written."""
    sent = site.pair.sql(site.pair.primary_port, "SELECT pg_current_wal_lsn()")
    return (
        site.pair.sql(
            site.pair.replica_port, f"SELECT pg_last_wal_replay_lsn() >= '{sent}'"
        )
        == "t"
    )


def test_the_replica_is_a_streaming_standby(site):
    assert site.pair.sql(site.pair.replica_port, "SELECT pg_is_in_recovery()") == "t"
    assert site.health()["replica"] == "ok"


def test_readers_read_the_replica_and_editors_the_primary(site):
    wait_for(lambda: replayed(site))
    session = site.shell(EDITOR_SESSION)
    site.pair.sql(site.pair.replica_port, "SELECT pg_wal_replay_pause()")
    try:
        url = site.publish("خبر نشر للتو")
        # Not yet replayed: the reader's page comes from the replica, the
        # editor's from the primary.
        assert site.get(url)[0] == 404
        status, page = site.get(url, session=session)
        assert status == 200
        assert "خبر نشر للتو" in page
    finally:
        site.pair.sql(site.pair.replica_port, "SELECT pg_wal_replay_resume()")
    wait_for(lambda: site.get(url)[0] == 200)


def test_a_replica_further_behind_than_the_setting_is_left_aside(site):
    wait_for(lambda: replayed(site))
    site.pair.sql(site.pair.replica_port, "SELECT pg_wal_replay_pause()")
    try:
        url = site.publish("خبر نشر للتو")
        time.sleep(MAX_LAG + 1.5)
        assert site.health()["replica"] == "lagging"
        assert site.get(url)[0] == 200  # read from the primary
    finally:
        site.pair.sql(site.pair.replica_port, "SELECT pg_wal_replay_resume()")
    wait_for(lambda: site.health()["replica"] == "ok")


def test_a_replica_that_is_down_is_left_aside(site):
    """Last: the replica is not started again."""
    site.pair.stop_replica()
    wait_for(lambda: site.health()["replica"] == "unavailable")
    assert site.get("/ar/")[0] == 200
