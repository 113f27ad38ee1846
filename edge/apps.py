from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EdgeConfig(AppConfig):
    """The caches in front of the site (Varnish, a CDN): every public page says
    what it shows by surrogate keys, and every change purges exactly the keys it
    touches, once committed."""

    name = "edge"
    verbose_name = _("Edge cache")

    def ready(self) -> None:
        from core import events

        from . import receivers

        events.connect_group(
            events.PUBLIC,
            receivers.edge_purge_on_change,
            dispatch_uid="edge.purge",
        )
