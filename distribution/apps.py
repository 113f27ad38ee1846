from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DistributionConfig(AppConfig):
    """What partners receive: stories as IPTC ninjs documents (the content API,
    partners and webhooks will live here too)."""

    name = "distribution"
    verbose_name = _("Distribution")
