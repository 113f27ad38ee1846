from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArticlesConfig(AppConfig):
    name = "articles"
    verbose_name = _("Editorial")

    def ready(self) -> None:
        from core import events

        from .parts import register_own_parts
        from .receivers import reindex_on_change

        register_own_parts()
        events.connect_group(
            events.STORY, reindex_on_change, dispatch_uid="articles.search_index"
        )
