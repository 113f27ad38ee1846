from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublishingConfig(AppConfig):
    """What readers and partners receive: public pages, feeds, sitemaps, search and
    the caches in front of them. Editorial apps announce their changes
    (audit.signals.content_changed); this app listens and purges its own caches."""

    name = "publishing"
    verbose_name = _("Publishing")

    def ready(self) -> None:
        from audit.signals import content_changed

        from . import navigation, page_cache  # noqa: F401  (connect their receivers)
        from .fragments import purge_on_change

        content_changed.connect(
            purge_on_change, dispatch_uid="publishing.fragments.purge"
        )
