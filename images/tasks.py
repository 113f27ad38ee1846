"""The image library's background work, run by the task backend (settings.TASKS).

In production an RQ worker runs it (`manage.py rqworker --with-scheduler default
renditions`); in development and tests the immediate backend runs it in the
process that enqueued it, after the commit. Either way it is enqueued after the
image's transaction commits, never inside a reader's or an editor's request.
"""

import logging
from datetime import timedelta

from django.utils import timezone
from django_tasks import task

from audit.signals import content_changed

from .models import Image
from .renditions import renditions_make

logger = logging.getLogger(__name__)

# Seconds before each new try of a failed job: a worker short of memory or a
# storage hiccup often passes; a broken file fails all four tries.
RETRY_DELAYS = (30, 300, 1800)


@task(queue_name="renditions")
def make_renditions(image_id: int, attempt: int = 1) -> int:
    """Make an image's renditions and let cached pages show them; on failure try
    again later, and after the last try fail the job, kept with its traceback
    for administrators (/admin/rq/, "failed")."""
    image = Image.objects.filter(pk=image_id).first()
    if image is None:  # deleted before its turn came
        return 0
    try:
        made = renditions_make(image)
    except Exception:
        # The pages show the original meanwhile. The backend cannot pass a retry
        # policy to RQ, so the task puts itself back with a delay (RQ's
        # scheduler, run by the worker, moves it to the queue when it is due).
        last = attempt > len(RETRY_DELAYS)
        if last or not make_renditions.get_backend().supports_defer:
            logger.exception("Renditions of image %s could not be made", image_id)
            raise
        delay = RETRY_DELAYS[attempt - 1]
        logger.warning(
            "Renditions of image %s failed (try %s); trying again in %s s",
            image_id,
            attempt,
            delay,
            exc_info=True,
        )
        make_renditions.using(
            run_after=timezone.now() + timedelta(seconds=delay)
        ).enqueue(image_id, attempt + 1)
        return 0
    # Pages cached while they were being made show the original: cache them anew.
    content_changed.send(sender=Image, instance=image, action="renditions")
    return made
