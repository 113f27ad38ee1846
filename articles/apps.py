from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArticlesConfig(AppConfig):
    name = "articles"
    verbose_name = _("Editorial")

    def ready(self) -> None:
        from newsroom import page_cache  # noqa: F401  (purges pages on every change)

        from . import navigation  # noqa: F401  (connects the menu's cache signals)
        from .revisions import register_story_models

        register_story_models()
