from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublishingConfig(AppConfig):
    """What readers and partners receive: public pages, feeds, sitemaps, search and
    the caches in front of them. Editorial services send their domain events
    (core.events); this app subscribes and purges its own caches."""

    name = "publishing"
    verbose_name = _("Publishing")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from articles.models import Section
        from core import events

        from . import receivers

        events.connect_group(
            events.PUBLIC,
            receivers.pages_purge_on_change,
            dispatch_uid="publishing.page_cache.purge",
        )
        events.connect_group(
            events.SHOWN_BY_STORIES,
            receivers.fragments_purge_on_change,
            dispatch_uid="publishing.fragments.purge",
        )
        for signal in (post_save, post_delete):
            signal.connect(
                receivers.menu_forget,
                sender=Section,
                dispatch_uid="publishing.navigation.forget",
            )
