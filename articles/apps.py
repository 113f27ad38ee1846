from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArticlesConfig(AppConfig):
    name = "articles"
    verbose_name = _("Editorial")

    def ready(self) -> None:
        from audit.signals import content_changed

        from .models import Article
        from .parts import register_own_parts
        from .search_index import reindex_on_change

        register_own_parts()
        content_changed.connect(
            reindex_on_change,
            sender=Article,
            dispatch_uid="articles.search_index.reindex",
        )
