from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ImagesConfig(AppConfig):
    name = "images"
    verbose_name = _("Image library")
    default_auto_field = "django.db.models.BigAutoField"
