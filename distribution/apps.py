from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DistributionConfig(AppConfig):
    """What partners receive: stories as IPTC ninjs documents through the content
    API, the partners and their keys, and the release log they sync from."""

    name = "distribution"
    verbose_name = _("Distribution")

    def ready(self) -> None:
        from django.db.models.signals import pre_delete

        from articles.models import Article
        from articles.parts import register_bookkeeping
        from core import events

        from .receivers import (
            delivery_send_on_replay,
            record_on_change,
            record_on_delete,
        )

        # The read side wires its own receivers: editorial apps never import us.
        events.connect_group(
            events.STORY, record_on_change, dispatch_uid="distribution.releases.record"
        )
        events.delivery_replayed.connect(
            delivery_send_on_replay, dispatch_uid="distribution.webhooks.replay"
        )
        pre_delete.connect(
            record_on_delete, sender=Article, dispatch_uid="distribution.releases.gone"
        )
        register_bookkeeping(
            "releases", "the partner API's log of changes; it holds no text"
        )
        from identity.exits import register_exit

        from .exits import api_documents, webhook_bodies

        register_exit("API documents", api_documents)
        register_exit("webhook deliveries", webhook_bodies)
