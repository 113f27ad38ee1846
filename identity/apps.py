from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IdentityConfig(AppConfig):
    name = "identity"
    verbose_name = _("People")

    def ready(self) -> None:
        from . import cache  # noqa: F401 (connects the gate's reload to Person saves)
