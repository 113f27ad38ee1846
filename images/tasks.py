"""The image library's background work, run by the task backend (settings.TASKS).

In production RQ workers of their own run it (`manage.py rqworker --with-scheduler
renditions`); in development and tests the immediate backend runs it in the
process that enqueued it, after the commit. Either way it is enqueued after the
image's transaction commits, never inside a reader's or an editor's request.

The image row, not the queue, is the record of the work owed
(`Image.renditions_owed_since`): whoever enqueues a job first takes the image's
lease, a running job renews it after each rendition, and `renditions_sweep`
(`manage.py sweep_renditions --every 60`) enqueues a job for every set still owed
whose lease ran out: a job lost with Redis, an upload made while the queue was
down, a worker killed halfway. A job makes only what the set still misses.
"""

import logging
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone
from django_tasks import task

from core import events
from core.logs import Throttle

from .models import Image
from .renditions import renditions_make

logger = logging.getLogger(__name__)

# Seconds before each new try of a failed job: a worker short of memory or a
# storage hiccup often passes; a broken file fails all four tries.
RETRY_DELAYS = (30, 300, 1800)
# Jobs started on one set before the sweep leaves it alone (the image then shows
# its original; `regenerate_renditions --missing` makes what is missing).
MAX_TRIES = len(RETRY_DELAYS) + 1
# A queue that is down fails every enqueue alike: one line a minute says it.
_queue_down = Throttle(60)


def _lease(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) + timedelta(
        seconds=settings.RENDITIONS_LEASE_SECONDS
    )


def renditions_enqueue(image_id: int) -> bool:
    """Put the job of an image's owed set on the queue unless a live job has it;
    False when none was put (nothing owed, leased, or the queue is down: the set
    stays owed and the sweep enqueues it when the queue is back)."""
    try:
        return _enqueue(image_id)
    except Exception:
        admitted, held = _queue_down.admit("renditions")
        if admitted:
            logger.exception(
                "Renditions of image %s could not be queued (%s more since the "
                "last report); the sweep will queue them",
                image_id,
                held,
            )
        return False


def _enqueue(image_id: int, *, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    # Taking the lease is the lock: two sweeps, or a sweep and an upload, never
    # both enqueue a set.
    taken = (
        Image.objects.filter(pk=image_id, renditions_owed_since__isnull=False)
        .filter(
            Q(renditions_leased_until__isnull=True) | Q(renditions_leased_until__lt=now)
        )
        .update(renditions_leased_until=_lease(now))
    )
    if not taken:
        return False
    try:
        make_renditions.enqueue(image_id)
    except Exception:
        Image.objects.filter(pk=image_id).update(renditions_leased_until=None)
        raise
    return True


def renditions_owed(*, now: datetime | None = None):
    """Images whose set is owed, that no live job carries and that have tries
    left, oldest request first."""
    now = now or timezone.now()
    return (
        Image.objects.filter(
            renditions_owed_since__isnull=False, renditions_tries__lt=MAX_TRIES
        )
        .filter(
            Q(renditions_leased_until__isnull=True) | Q(renditions_leased_until__lt=now)
        )
        .order_by("renditions_owed_since", "pk")
    )


def renditions_sweep(*, limit: int = 500) -> int:
    """Enqueue the job of every owed set no live job carries; returns how many
    were enqueued. A queue that is down ends the round (it raises): the sets stay
    owed for the next."""
    ids = list(renditions_owed().values_list("pk", flat=True)[:limit])
    return sum(_enqueue(pk) for pk in ids)


@task(queue_name="renditions")
def make_renditions(image_id: int, attempt: int = 1) -> int:
    """Make what an image's set of renditions misses and let cached pages show
    them; on failure try again later, and after the last try fail the job, kept
    with its traceback for administrators (/admin/rq/, "failed")."""
    # A job at work holds the image: its lease is renewed after each rendition,
    # so only a job that stopped (a worker killed) lets it run out.
    Image.objects.filter(pk=image_id).update(
        renditions_leased_until=_lease(), renditions_tries=F("renditions_tries") + 1
    )
    image = Image.objects.filter(pk=image_id).first()
    if image is None:  # deleted before its turn came
        return 0
    attempt = max(attempt, image.renditions_tries)
    renew = partial(_renew, image_id)
    try:
        made = renditions_make(image, missing_only=True, each=renew)
    except Exception:
        if not _retried_later(image, attempt):
            raise
        return 0
    # Done with the set asked for, unless another was asked for meanwhile.
    Image.objects.filter(
        pk=image_id, renditions_owed_since=image.renditions_owed_since
    ).update(renditions_owed_since=None, renditions_leased_until=None)
    # Pages cached while they were being made show the original: cache them anew.
    events.send_on_commit(events.image_renditions_made, instance=image)
    return made


def _renew(image_id: int) -> None:
    Image.objects.filter(pk=image_id).update(renditions_leased_until=_lease())


def _retried_later(image: Image, attempt: int) -> bool:
    """Put a failed job back after its delay (the pages show the original
    meanwhile); False after the last try, or without a backend that can wait."""
    last = attempt > len(RETRY_DELAYS)
    if last or not make_renditions.get_backend().supports_defer:
        logger.exception("Renditions of image %s could not be made", image.pk)
        if last:  # the sweep leaves it alone from now on
            Image.objects.filter(pk=image.pk).update(renditions_tries=MAX_TRIES)
        return False
    # The backend cannot pass a retry policy to RQ, so the task puts itself back
    # with a delay (RQ's scheduler, run by the worker, moves it to the queue when
    # it is due); the lease covers the wait, so the sweep does not add another.
    delay = RETRY_DELAYS[attempt - 1]
    logger.warning(
        "Renditions of image %s failed (try %s); trying again in %s s",
        image.pk,
        attempt,
        delay,
        exc_info=True,
    )
    run_after = timezone.now() + timedelta(seconds=delay)
    Image.objects.filter(pk=image.pk).update(renditions_leased_until=_lease(run_after))
    try:
        make_renditions.using(run_after=run_after).enqueue(image.pk, attempt + 1)
    except Exception:
        # The queue went down meanwhile: the lease runs out and the sweep retries.
        logger.warning("Retry of image %s's renditions not queued", image.pk)
    return True
