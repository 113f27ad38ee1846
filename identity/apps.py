from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IdentityConfig(AppConfig):
    name = "identity"
    verbose_name = _("People")

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from core.doors import register_guard

        from .cache import people_changed
        from .models import Person, person_saved
        from .refusals import write_door

        # A form's check passes the door of the service it checks for.
        register_guard(write_door)

        # The gate each process holds is reloaded when a person changes: once the
        # row, its names and its legal spellings are written, or once it is gone.
        person_saved.connect(
            people_changed, sender=Person, dispatch_uid="identity.cache.saved"
        )
        post_delete.connect(
            people_changed, sender=Person, dispatch_uid="identity.cache.gone"
        )
