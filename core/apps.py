from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.module_loading import autodiscover_modules


class CoreConfig(AppConfig):
    """The library every app may import; an app only for the roles: it collects the
    apps' grants at startup and keeps the groups in step after every migrate."""

    name = "core"

    def ready(self) -> None:
        from . import roles

        # Each app's `roles` module grants the permissions of its own models, so
        # the registry is complete before the first migrate or request.
        autodiscover_modules("roles")
        post_migrate.connect(
            roles.groups_sync_after_migrate, dispatch_uid="core.roles.groups_sync"
        )
