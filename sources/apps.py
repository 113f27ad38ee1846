from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SourcesConfig(AppConfig):
    name = "sources"
    verbose_name = _("Source directory")

    def ready(self) -> None:
        from articles.parts import StoryPart, register

        # A story's credits are one of its parts: the gate checks them, revisions
        # record them, the page shows them (see articles.parts).
        register(
            StoryPart("attributions", related=("source",), public_related=("source",))
        )
