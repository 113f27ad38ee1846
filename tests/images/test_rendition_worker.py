"""An upload's renditions are made by a real RQ worker process, on Redis.

The worker is another process, so it must read the same database: PostgreSQL only
(SQLite's test database lives in this process's memory). `.ci/run` sets
REQUIRE_WORKER=1, so there a missing PostgreSQL or Redis fails instead of skipping.
"""

import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.db import connection

from articles.services import image_save
from images.models import Image
from tests.factories import SuperuserFactory
from tests.images.pictures import photo_bytes, upload
from tests.queue.conftest import process_env, unavailable

ROOT = Path(__file__).resolve().parents[2]
# A Redis database of this test's own: its queues hold nothing else's jobs.
TASKS_URL = "redis://127.0.0.1:6379/13"


@pytest.fixture
def rq_backend(settings):
    if connection.vendor != "postgresql":
        unavailable("a worker process cannot read SQLite's in-memory test database")
    queue_db = redis.Redis.from_url(TASKS_URL)
    try:
        queue_db.flushdb()
    except redis.ConnectionError:
        unavailable(f"no Redis at {TASKS_URL}")
    settings.TASKS = {
        "default": {
            "BACKEND": "django_tasks_rq.RQBackend",
            "QUEUES": settings.TASK_QUEUES,
        }
    }
    settings.RQ_QUEUES = {name: {"URL": TASKS_URL} for name in settings.TASK_QUEUES}
    yield
    queue_db.flushdb()


def run_worker(media: Path) -> subprocess.CompletedProcess:
    """A worker that takes every queued rendition job, then stops (`--burst`)."""
    return subprocess.run(
        [sys.executable, "manage.py", "rqworker", "--burst", "renditions"],
        cwd=ROOT,
        env=process_env(TASKS_URL, media),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.django_db(transaction=True)
def test_a_worker_process_makes_an_uploads_renditions(rq_backend, media):
    """The upload stores the original only; a worker on Redis makes the renditions."""
    image = image_save(
        image=Image(file=upload(photo_bytes((1600, 1000))), title_ar="صورة"),
        by=SuperuserFactory(),
    )
    assert not image.renditions.exists()
    worker = run_worker(media)
    assert worker.returncode == 0, worker.stderr
    widths = set(
        image.renditions.filter(ratio="", format="webp").values_list("width", flat=True)
    )
    assert widths == {320, 640, 960, 1280}
    assert all(
        (media / name).is_file()
        for name in image.renditions.values_list("file", flat=True)
    )
