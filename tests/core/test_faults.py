"""A bad day in production: the database or the cache goes away.

The database is made unreachable for one test by swapping in a real connection to
nowhere (a closed port, or an SQLite file in a folder that does not exist), never
by stopping the shared server; the test's own connection is put back afterwards.
"""

import json
import socket
from contextlib import ExitStack, contextmanager

import pytest
import redis
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.urls import reverse

from articles.models import Article
from core.faults import alive_file, run_every
from newsroom.settings.base import caches_for
from newsroom.settings.https import https_profile
from tests.factories import ArticleFactory

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    """A local TCP port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def database_unreachable():
    """Until the block ends, every query fails as during a database restart."""
    original = connections["default"]
    broken_settings = {**original.settings_dict}
    if original.vendor == "sqlite":
        broken_settings["NAME"] = "/nonexistent-folder/newsroom.sqlite3"
    else:
        broken_settings.update(HOST="127.0.0.1", PORT=str(closed_port()))
    broken = original.__class__(broken_settings, "default")
    connections["default"] = broken
    try:
        yield
    finally:
        broken.close()
        connections["default"] = original


@pytest.fixture
def reader():
    """A reader's browser: server errors come back as responses, not exceptions."""
    return Client(raise_request_exception=False)


@pytest.fixture
def cache_down(settings):
    """CACHE_URL points at a Redis port nothing listens on."""
    settings.CACHES = caches_for(f"redis://127.0.0.1:{closed_port()}/1")


def test_readers_get_a_plain_503_while_the_database_is_down(reader):
    """A page needing the database answers 503 with a short page, not a traceback."""
    story = ArticleFactory(language="en", headline_en="Port talks resume")
    with database_unreachable():
        response = reader.get(f"/en/{story.get_absolute_url().split('/', 2)[2]}")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    body = response.content.decode()
    assert "Back in a moment" in body
    assert "Traceback" not in body and "OperationalError" not in body


def test_an_editor_with_a_session_gets_the_same_503_page(admin_client):
    """A session read failing in a middleware still ends in the plain 503 page."""
    admin_client.raise_request_exception = False
    with database_unreachable():
        response = admin_client.get(reverse("admin:index"))
    assert response.status_code == 503
    assert "<h1>" in response.content.decode()


def test_cached_pages_keep_being_served_while_the_database_is_down(reader, settings):
    """A page already in the page cache is served without the database."""
    settings.PAGE_CACHE = True
    ArticleFactory()
    home = reverse("articles:home")
    assert reader.get(home)["X-Page-Cache"] == "miss"
    with database_unreachable():
        response = reader.get(home)
    assert response.status_code == 200
    assert response["X-Page-Cache"] == "hit"


def test_the_site_reconnects_when_the_database_is_back(reader):
    """After the outage the next request is served, with no restart."""
    ArticleFactory()
    with database_unreachable():
        assert reader.get(reverse("articles:home")).status_code == 503
    assert reader.get(reverse("articles:home")).status_code == 200


def test_healthz_reports_ok_when_everything_answers(reader):
    """/healthz answers 200 with the state of the database and the cache."""
    response = reader.get("/healthz")
    assert response.status_code == 200
    assert json.loads(response.content) == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "rate_limits": "shared",
        "replica": "none",
    }


def test_healthz_answers_503_without_the_database(reader):
    """Without the database /healthz says so with 503, and nothing about why."""
    with database_unreachable():
        response = reader.get("/healthz")
    assert response.status_code == 503
    assert json.loads(response.content) == {
        "status": "unavailable",
        "database": "unavailable",
        "cache": "ok",
        "rate_limits": "shared",
        "replica": "none",
    }


def test_healthz_is_never_cached(reader, settings):
    """The probe's answer is never stored, by the page cache or anyone else."""
    settings.PAGE_CACHE = True
    response = reader.get("/healthz")
    assert "no-store" in response["Cache-Control"]
    assert "X-Page-Cache" not in response


def test_healthz_is_not_redirected_to_https(reader, settings):
    """The orchestrator probes plain HTTP inside the network; it is not redirected."""
    for name, value in https_profile().items():
        setattr(settings, name, value)
    assert reader.get("/healthz").status_code == 200
    assert reader.get(reverse("articles:home")).status_code == 301


def test_the_site_serves_pages_while_redis_is_down(reader, settings, cache_down):
    """With Redis unreachable, pages are rendered afresh instead of failing."""
    settings.PAGE_CACHE = True
    settings.PAGE_CACHE_LOCAL_SECONDS = 0  # the worker's own copies are not Redis
    story = ArticleFactory()
    for path in (reverse("articles:home"), story.get_absolute_url()) * 2:
        response = reader.get(path)
        assert response.status_code == 200, path
        assert response["X-Page-Cache"] != "hit"


def test_healthz_reports_a_missing_cache_as_degraded(reader, cache_down):
    """Without Redis the site still serves, so /healthz stays 200 but says so."""
    response = reader.get("/healthz")
    assert response.status_code == 200
    assert json.loads(response.content) == {
        "status": "degraded",
        "database": "ok",
        "cache": "unavailable",
        "rate_limits": "per-process",
        "replica": "none",
    }


def test_rate_limits_hold_while_redis_is_down(reader, settings, cache_down):
    """The limits fall back to each worker's own count rather than to none."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "search": (3, 60)}
    answers = [reader.get("/en/search/?q=ports").status_code for _ in range(5)]
    assert answers == [200, 200, 200, 429, 429]


def test_an_unreachable_cache_reads_as_misses_and_drops_writes(cache_down):
    """Every cache call returns its 'nothing there' answer instead of raising."""
    cache.set("page", "html")
    assert cache.get("page", "fallback") == "fallback"
    assert cache.get_or_set("generation", 1) == 1
    assert cache.add("lock", 1) is False
    assert cache.get_many(["a", "b"]) == {}
    with pytest.raises(ValueError):
        cache.incr("generation")


def test_the_tolerant_cache_stores_and_reads_through_a_live_redis(settings):
    """Against a running Redis the tolerant backend is an ordinary cache."""
    url = "redis://127.0.0.1:6379/15"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    settings.CACHES = caches_for(url)
    settings.CACHES["default"]["KEY_PREFIX"] = f"test-prod-{closed_port()}"
    cache.set("generation", 7, 30)
    assert cache.get("generation") == 7
    assert cache.incr("generation") == 8
    assert cache.ping() is True
    cache.delete("generation")


def test_the_tolerant_cache_reuses_one_redis_client_per_server(settings):
    """Building a client per call cost half of serving a cached page; one is kept."""
    settings.CACHES = caches_for("redis://127.0.0.1:6379/15")
    assert cache.client.get_client(write=True) is cache.client.get_client(write=False)


@pytest.mark.django_db(transaction=True)
def test_a_long_running_loop_lives_through_a_database_outage(caplog):
    """A sweep's loop (`run_every`) logs the outage once with its traceback, tries
    again after 1, 2, 4… seconds, and works again once the database is back."""
    ArticleFactory()
    counted, waits = [], []
    outage = ExitStack()
    outage.enter_context(database_unreachable())

    def sleep(seconds):
        waits.append(seconds)
        if len(waits) == 4:
            outage.close()  # the database is back

    run_every(
        60,
        lambda: counted.append(Article.objects.count()),
        name="sweep",
        rounds=6,
        sleep=sleep,
    )
    assert counted == [1, 1]  # rounds 5 and 6
    assert waits == [1, 2, 4, 8, 60]
    assert caplog.text.count("sweep: a round failed") == 1
    assert "Traceback" in caplog.text
    assert "sweep: working again" in caplog.text
    assert alive_file("sweep").is_file()
