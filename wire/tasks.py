"""The wire's background work, the top of the app: polling a channel (through the
channels and the services) and what queues it. An item's pictures are fetched by
wire.queueing.fetch_pictures, which the services queue themselves."""

import logging

from django_tasks import task

from .channels import channel_poll, poll_claim, poll_release
from .models import Channel

# Jobs queued before the pictures' task moved to wire/queueing.py name it here.
from .queueing import fetch_pictures as fetch_pictures

logger = logging.getLogger(__name__)


@task(queue_name="wire")
def poll_channel(channel_id: int) -> dict:
    """Poll one channel (the `poll_wire` command enqueues one per due channel)."""
    try:
        channel = (
            Channel.objects.select_related("source", "acting_user")
            .filter(pk=channel_id)
            .first()
        )
        if channel is None or not channel.active:
            return {}
        report = channel_poll(channel)
    finally:
        # Claimed when it was queued (`poll_enqueue`): the channel may be queued
        # again once this poll is over.
        poll_release(channel_id)
    return {"files": report.files, "rejected": report.rejected, **report.outcomes}


def poll_enqueue(channel: Channel) -> bool:
    """Queue a poll of the channel unless one is queued or running already."""
    if not poll_claim(channel.pk):
        return False
    try:
        poll_channel.enqueue(channel.pk)
    except Exception:
        poll_release(channel.pk)
        raise
    return True
