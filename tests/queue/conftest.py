"""Real parts for the queue's tests: a Redis server of the test's own (started,
stopped and restarted by the test, never the shared one), RQ workers as separate
processes, and the test's PostgreSQL database, which those processes read.

A worker is another process, so it must read the same database: PostgreSQL only
(SQLite's test database lives in this process's memory). `.ci/run` sets
REQUIRE_WORKER=1, so there a missing PostgreSQL or redis-server fails instead of
skipping.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("REQUIRE_WORKER") == "1"


def unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"REQUIRE_WORKER=1 but {reason}")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """A redis-server process on a free loopback port, with its append-only file
    in a folder of its own, as docker-compose runs it."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--save",
                "",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        """Shut down as `docker compose restart` does (SIGTERM): the append-only
        file is flushed."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)


@pytest.fixture
def media(settings):
    with tempfile.TemporaryDirectory(prefix="newsroom-queue-") as folder:
        settings.MEDIA_ROOT = folder
        yield Path(folder)


@pytest.fixture
def own_redis(settings):
    """A Redis of the test's own, running, and the task backend pointed at it."""
    if connection.vendor != "postgresql":
        unavailable("a worker process cannot read SQLite's in-memory test database")
    if shutil.which("redis-server") is None:
        unavailable("no redis-server on PATH (apt-get install redis-server)")
    with tempfile.TemporaryDirectory(prefix="newsroom-redis-") as folder:
        server = RedisServer(Path(folder))
        server.start()
        settings.TASKS = {
            "default": {
                "BACKEND": "django_tasks_rq.RQBackend",
                "QUEUES": settings.TASK_QUEUES,
            }
        }
        settings.RQ_QUEUES = {
            name: {"URL": server.url} for name in settings.TASK_QUEUES
        }
        try:
            yield server
        finally:
            server.stop()


def database_url() -> str:
    """The test database's address, for the worker."""
    db = connection.settings_dict
    user = quote(db["USER"] or "")
    password = f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return (
        f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


def process_env(tasks_url: str, media: Path, **extra: str) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "newsroom.settings.test",
        "DATABASE_URL": database_url(),
        "TASKS_URL": tasks_url,
        "TEST_MEDIA_ROOT": str(media),
        **extra,
    }


def worker(
    queues: list[str], tasks_url: str, media: Path, *, burst: bool = True, **env
) -> subprocess.Popen:
    """An RQ worker process, taking the jobs of `queues` (then stopping, if
    `burst`)."""
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "rqworker",
            *(["--burst"] if burst else []),
            *queues,
        ],
        cwd=ROOT,
        env=process_env(tasks_url, media, **env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(process: subprocess.Popen, timeout: float = 120) -> str:
    """Wait for a burst worker to end; its output, for an assertion's message."""
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err
    return out + err


def kill(process: subprocess.Popen) -> None:
    """SIGKILL the worker and its work horse at once (no cleanup runs), as the
    end of its container would. RQ puts the horse in a process group of its own,
    so it is found by its parent."""
    for pid in [*children(process.pid), process.pid]:
        os.kill(pid, signal.SIGKILL)
    process.communicate(timeout=10)


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
