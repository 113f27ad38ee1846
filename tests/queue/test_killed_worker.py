"""A worker killed in the middle of a rendition job (SIGKILL, as an out-of-memory
kill or a lost machine ends it): RQ keeps the job as started, with no retry; the
image's lease runs out, the sweep queues the set again, and the next worker makes
only what the set still misses."""

import time

import pytest
from django.core.management import call_command
from django_rq import get_queue

from images.models import Image
from images.renditions import wanted
from tests.factories import SuperuserFactory
from tests.queue.conftest import finished, kill, worker
from tests.queue.test_outages import complete, uploaded

pytestmark = pytest.mark.django_db(transaction=True)

# A 35-megapixel photo: its set of 27 takes the worker a few seconds.
LARGE = (7000, 5000)


def wait_for(condition, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_set_a_killed_worker_left_half_made_is_completed(own_redis, media, capsys):
    image = uploaded(SuperuserFactory(), size=LARGE)
    total = len(wanted(image))
    first = worker(["renditions"], own_redis.url, media, RENDITIONS_LEASE_SECONDS="2")
    wait_for(lambda: image.renditions.count() >= 3)
    kill(first)
    made = set(image.renditions.values_list("pk", flat=True))
    assert 3 <= len(made) < total
    # What RQ alone leaves: the job stuck as started, nothing queued to retry it.
    renditions = get_queue("renditions")
    assert renditions.started_job_registry.count == 1
    assert renditions.count == 0
    # The killed job renewed its lease seconds ago: the sweep leaves it alone,
    # then takes the set once the lease has run out.
    call_command("sweep_renditions", verbosity=2)
    assert "0 rendition jobs queued" in capsys.readouterr().out
    image.refresh_from_db()
    wait_for(lambda: time.time() > image.renditions_leased_until.timestamp(), 10)
    call_command("sweep_renditions")
    assert "1 rendition jobs queued" in capsys.readouterr().out
    finished(worker(["renditions"], own_redis.url, media))
    assert complete(image)
    assert made <= set(image.renditions.values_list("pk", flat=True))
    assert Image.objects.get(pk=image.pk).renditions_tries == 2
