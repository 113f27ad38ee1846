"""A real streaming replica (tests/postgres_pair.py: a second PostgreSQL made by
pg_basebackup) behind DATABASE_REPLICA_URL, with the site served by its own
process: anonymous readers read the replica, editors the primary, and a replica
that lags or is down is left aside, said by /healthz.

Without PostgreSQL's binaries the tests are skipped, unless REQUIRE_REPLICA=1
(set by .ci/run).
"""

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.postgres_pair import PostgresPair, binaries, start_pair
from tests.processes import free_port, wait_listening

ROOT = Path(__file__).resolve().parents[2]
MAX_LAG = 3


@dataclass
class Site:
    pair: PostgresPair
    url: str
    env: dict

    def shell(self, code: str) -> str:
        return _manage(self.env, "shell", "-c", code).strip().splitlines()[-1]

    def get(self, path: str, session: str = "") -> tuple[int, str]:
        request = urllib.request.Request(self.url + path)
        if session:
            request.add_header("Cookie", f"sessionid={session}")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def health(self) -> str:
        return json.loads(self.get("/healthz")[1])["replica"]


def _manage(env: dict, *arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def site():
    if binaries() is None:
        if os.environ.get("REQUIRE_REPLICA") == "1":
            pytest.fail("PostgreSQL's binaries are missing (REQUIRE_REPLICA=1)")
        pytest.skip("PostgreSQL's binaries are missing (apt install postgresql)")
    pair = start_pair()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "newsroom.settings.dev",
        "DATABASE_URL": pair.primary_url,
        "DATABASE_REPLICA_URL": pair.replica_url,
        "DATABASE_REPLICA_MAX_LAG": str(MAX_LAG),
        "PAGE_CACHE": "0",
        "CACHE_URL": "",
    }
    try:
        _manage(env, "migrate", "-v0")
        _manage(env, "load_demo", "--accounts")
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "runserver",
                "--noreload",
                f"127.0.0.1:{port}",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        wait_listening(server, port, within=60)
        yield Site(pair, f"http://127.0.0.1:{port}", env)
        server.terminate()
        server.wait(timeout=10)
    finally:
        pair.stop()


PUBLISH = """
from django.utils import translation
from articles.services import article_publish
from django.contrib.auth import get_user_model
from tests.factories import DraftArticleFactory
editor = get_user_model().objects.get(username="editor")
draft = DraftArticleFactory(headline_ar="خبر نشر للتو")
article_publish(article=draft, by=editor)
with translation.override("ar"):
    print(draft.get_absolute_url())
"""

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
    assert site.health() == "ok"


def test_readers_read_the_replica_and_editors_the_primary(site):
    wait_for(lambda: replayed(site))
    session = site.shell(EDITOR_SESSION)
    site.pair.sql(site.pair.replica_port, "SELECT pg_wal_replay_pause()")
    try:
        url = site.shell(PUBLISH)
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
        url = site.shell(PUBLISH)
        time.sleep(MAX_LAG + 1.5)
        assert site.health() == "lagging"
        assert site.get(url)[0] == 200  # read from the primary
    finally:
        site.pair.sql(site.pair.replica_port, "SELECT pg_wal_replay_resume()")
    wait_for(lambda: site.health() == "ok")


def test_a_replica_that_is_down_is_left_aside(site):
    """Last: the replica is not started again."""
    site.pair.stop_replica()
    wait_for(lambda: site.health() == "unavailable")
    assert site.get("/ar/")[0] == 200
