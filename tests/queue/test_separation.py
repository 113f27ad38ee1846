"""Queues that cannot starve each other: with the workers docker-compose runs, an
upload's renditions are made while a slow wire poll holds its own worker (a
trickling feed once held the only worker while an upload waited 7 minutes)."""

import time

import pytest
import yaml
from django_rq import get_queue

from tests.factories import SuperuserFactory
from tests.queue.conftest import ROOT, kill, worker
from tests.queue.tasks import nap
from tests.queue.test_compose import worker_queues
from tests.queue.test_killed_worker import wait_for
from tests.queue.test_outages import complete, uploaded
from wire.tasks import poll_channel

pytestmark = pytest.mark.django_db(transaction=True)

# Longer than the bound the renditions must keep: with one worker for both
# they would wait for all of it.
POLL_SECONDS = 60
BOUND_SECONDS = 30


def test_renditions_arrive_while_a_slow_wire_poll_runs(own_redis, media):
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    nap.using(queue_name=poll_channel.queue_name).enqueue(POLL_SECONDS)
    image = uploaded(SuperuserFactory())
    started = time.monotonic()
    workers = [
        worker(queues, own_redis.url, media)
        for queues in worker_queues(services).values()
    ]
    try:
        wait_for(lambda: complete(image), BOUND_SECONDS)
        assert time.monotonic() - started < BOUND_SECONDS
        # The poll is still running in its own worker.
        assert get_queue(poll_channel.queue_name).started_job_registry.count == 1
    finally:
        for process in workers:
            kill(process)
