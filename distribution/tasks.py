"""The distribution app's background work: webhook deliveries, run by the task
backend (settings.TASKS) after the change that causes them has committed.

Each job is small and safe to run twice: the delivery rows hold the state
(`webhooks.deliveries`). Where the backend can defer (RQ with its scheduler), a
failed try puts itself back at its due time; elsewhere `manage.py send_webhooks`,
run every minute, sends what is due.
"""

import logging

from django.utils import timezone
from django_tasks import task

from core.logs import Throttle

from .models import Delivery, Release
from .webhooks.deliveries import deliveries_make, delivery_attempt

logger = logging.getLogger(__name__)
# A queue that is down fails every enqueue alike: one line a minute says it.
_queue_down = Throttle(60)


def _deferrable() -> bool:
    return send_delivery.get_backend().supports_defer


@task(queue_name="webhooks")
def fan_out_release(release_id: int) -> int:
    """Make a release's deliveries and send each; returns how many were made."""
    # Not joined to its story: a deleted story's release still goes out.
    release = Release.objects.filter(pk=release_id).first()
    if release is None:
        return 0
    made = deliveries_make(release)
    for delivery in made:
        send_delivery.enqueue(delivery.pk)
    return len(made)


@task(queue_name="webhooks")
def send_delivery(delivery_id: int) -> str:
    """Try a delivery; when it must be tried again, put the next try on the
    queue at its time."""
    delivery = delivery_attempt(delivery_id)
    if delivery is None:
        return "not due"
    if delivery.status == Delivery.Status.PENDING and _deferrable():
        send_delivery.using(run_after=delivery.next_attempt_at).enqueue(delivery.pk)
    return delivery.status


def delivery_enqueue(delivery_id: int) -> None:
    """Queue a try of a delivery now (an editor's "Send again now"); with the
    queue down the delivery, due in its row, is sent by the sweep."""
    try:
        send_delivery.enqueue(delivery_id)
    except Exception:
        _report_queue_down()


def _report_queue_down() -> None:
    admitted, held = _queue_down.admit("webhooks")
    if admitted:
        # The queue is down (Redis): the rows are in the database, and the sweep
        # sends them when it runs. The editor's change has committed.
        logger.exception(
            "Webhook deliveries could not be queued (%s more since the last "
            "report); the sweep will",
            held,
        )


def schedule_fan_out(releases: list[Release]) -> None:
    """Queue the fan-out of new releases: now when they are visible, at their
    time when the backend can wait (else the sweep finds them then)."""
    now = timezone.now()
    try:
        for release in releases:
            if release.visible_at <= now:
                fan_out_release.enqueue(release.pk)
            elif _deferrable():
                fan_out_release.using(run_after=release.visible_at).enqueue(release.pk)
    except Exception:
        _report_queue_down()
