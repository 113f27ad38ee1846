from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WireConfig(AppConfig):
    name = "wire"
    verbose_name = _("Agency wire")

    def ready(self) -> None:
        from articles.parts import register_bookkeeping

        register_bookkeeping(
            "wire_items", "the agency copy a draft was made from; newsroom only"
        )
