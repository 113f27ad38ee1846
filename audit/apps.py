from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "audit"
    verbose_name = _("Audit trail")

    def ready(self) -> None:
        # Each app's `audit_actions` module registers the verbs it records, so the
        # trail's labels and its admin filter know them all before any request.
        autodiscover_modules("audit_actions")
