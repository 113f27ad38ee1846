from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArticlesConfig(AppConfig):
    name = "articles"
    verbose_name = _("Editorial")

    def ready(self) -> None:
        from core import events
        from identity.protection import register_finder

        from .parts import register_own_parts
        from .protection import public_story_exposures
        from .receivers import reindex_on_change

        register_own_parts()
        # Protecting someone reads the public stories, and withdraws them in one step.
        register_finder("articles", public_story_exposures)
        events.connect_group(
            events.STORY, reindex_on_change, dispatch_uid="articles.search_index"
        )
