from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ImagesConfig(AppConfig):
    name = "images"
    verbose_name = _("Image library")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from core import events

        from .receivers import renditions_on_change

        events.image_changed.connect(
            renditions_on_change, dispatch_uid="images.receivers.renditions"
        )
