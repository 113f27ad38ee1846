from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DistributionConfig(AppConfig):
    """What partners receive: stories as IPTC ninjs documents through the content
    API, the partners and their keys, and the release log they sync from."""

    name = "distribution"
    verbose_name = _("Distribution")

    def ready(self) -> None:
        from articles.parts import register_bookkeeping
        from audit.signals import content_changed

        from .releases import record_on_change

        # The read side wires its own receivers: editorial apps never import us.
        content_changed.connect(
            record_on_change, dispatch_uid="distribution.releases.record"
        )
        register_bookkeeping(
            "releases", "the partner API's log of changes; it holds no text"
        )
