"""The wire's background work: polling a channel, fetching an item's pictures."""

import logging

from django.contrib.auth import get_user_model
from django_tasks import task

from .models import AgencyItem, Channel

logger = logging.getLogger(__name__)


@task(queue_name="wire")
def poll_channel(channel_id: int) -> dict:
    """Poll one channel (the `poll_wire` command enqueues one per due channel)."""
    from .channels import channel_poll, poll_release

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


@task()
def fetch_pictures(agency_item_id: int, user_id: int) -> int:
    """Bring the pictures of a taken item into the library, the first as the
    story's hero; returns how many were added."""
    from .pictures import pictures_import

    row = (
        AgencyItem.objects.select_related("article", "source")
        .filter(pk=agency_item_id)
        .first()
    )
    user = get_user_model().objects.filter(pk=user_id).first()
    if row is None or row.article is None or user is None:
        return 0
    return pictures_import(agency_item=row, by=user)
