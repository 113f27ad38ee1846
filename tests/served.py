"""The site served by a process of its own (`manage.py runserver`), in front of
databases a test started (tests/postgres_pair.py), asked over HTTP as a reader or
an editor would."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.postgres_pair import PostgresPair, binaries, start_pair
from tests.processes import free_port, wait_listening

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Site:
    pair: PostgresPair
    url: str
    env: dict

    def shell(self, code: str) -> str:
        """The last line `manage.py shell -c code` prints, run as the site is."""
        return manage(self.env, "shell", "-c", code).strip().splitlines()[-1]

    def get(self, path: str, session: str = "") -> tuple[int, str]:
        request = urllib.request.Request(self.url + path)
        if session:
            request.add_header("Cookie", f"sessionid={session}")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def health(self) -> dict:
        return json.loads(self.get("/healthz")[1])

    def publish(self, headline: str) -> str:
        """A new story published by the demo's editor through the desk's service;
        its address."""
        return self.shell(_PUBLISH.format(headline=json.dumps(headline)))


_PUBLISH = """
from django.utils import translation
from articles.services import article_publish
from django.contrib.auth import get_user_model
from tests.factories import DraftArticleFactory
editor = get_user_model().objects.get(username="editor")
draft = DraftArticleFactory(headline_ar={headline})
article_publish(article=draft, by=editor)
with translation.override("ar"):
    print(draft.get_absolute_url())
"""


def manage(env: dict, *arguments: str) -> str:
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


def postgres_pair() -> PostgresPair:
    """A primary and its replica; skipped without PostgreSQL's binaries, unless
    REQUIRE_REPLICA=1 (set by .ci/run)."""
    if binaries() is None:
        if os.environ.get("REQUIRE_REPLICA") == "1":
            pytest.fail("PostgreSQL's binaries are missing (REQUIRE_REPLICA=1)")
        pytest.skip("PostgreSQL's binaries are missing (apt install postgresql)")
    return start_pair()


@contextmanager
def served(pair: PostgresPair, **env: str) -> Iterator[Site]:
    """The demo newsroom migrated on the pair's primary, served with `env` (the
    databases' addresses among it), the page cache off."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "newsroom.settings.dev",
        "DATABASE_URL": pair.primary_url,
        "PAGE_CACHE": "0",
        "CACHE_URL": "",
        **env,
    }
    # Migrated on the primary itself: what the site is served through may not
    # take every statement a migration runs.
    manage({**env, "DATABASE_URL": pair.primary_url}, "migrate", "-v0")
    manage(env, "load_demo", "--accounts")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    wait_listening(server, port, within=60)
    try:
        yield Site(pair, f"http://127.0.0.1:{port}", env)
    finally:
        server.terminate()
        server.wait(timeout=10)
