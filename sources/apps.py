from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SourcesConfig(AppConfig):
    name = "sources"
    verbose_name = _("Source directory")

    def ready(self) -> None:
        import reversion

        from .models import Attribution

        # Story revisions follow their attributions (see articles.revisions).
        if not reversion.is_registered(Attribution):
            reversion.register(Attribution)
