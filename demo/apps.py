from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The fictional demo newsroom (`manage.py load_demo`); it spans every app, so
    it lives apart from them."""

    name = "demo"
    verbose_name = _("Demo newsroom")
