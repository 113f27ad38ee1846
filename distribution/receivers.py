"""The partners' side of a committed change: the release log is written, then the
releases' fan-out to webhooks is scheduled; a delivery replayed is queued.
Connected in DistributionConfig.ready(); the editorial apps never import this."""

from typing import Any

from django.db import transaction

from articles.models import Article

from .releases import release_for_change, releases_gone
from .tasks import delivery_enqueue, schedule_fan_out


def record_on_change(sender, instance: Article, action: str, **kwargs: Any) -> None:
    """Receiver of the story events: a change partners must see becomes a release,
    delivered to the webhooks that want it."""
    schedule_fan_out(release_for_change(instance, action))


def record_on_delete(sender, instance: Article, **kwargs: Any) -> None:
    """pre_delete of a story: partners given it are told it is gone, once the
    deletion commits."""
    rows = releases_gone(instance)
    if rows:
        transaction.on_commit(lambda: schedule_fan_out(rows))


def delivery_send_on_replay(sender, instance, **kwargs: Any) -> None:
    """Receiver of `delivery_replayed`: the delivery, due now, is queued."""
    delivery_enqueue(instance.pk)
