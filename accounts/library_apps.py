"""The sign-in libraries' app configs, named for the admin's readers: INSTALLED_APPS
lists these in the libraries' place. Without them the admin showed "Axes",
"Otp_Totp" and "TOTP devices" on an Arabic page: the libraries give no name, or an
English one outside gettext. Only administrators see these apps (no app grants
their permissions to a role, core/roles.py).

Kept out of apps.py, where a second AppConfig would stop Django from choosing
AccountsConfig for "accounts" by itself.
"""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_email.apps import DefaultConfig as OtpEmailConfig
from django_otp.plugins.otp_static.apps import DefaultConfig as OtpStaticConfig
from django_otp.plugins.otp_totp.apps import DefaultConfig as OtpTotpConfig


class LockoutsConfig(AxesAppConfig):
    """django-axes (its models have Arabic names of their own)."""

    verbose_name = _("Login lockouts")


class _ModelNamesMixin:
    """Names the app's models in the newsroom's words, where the library's are
    not translatable. Only the loaded options change: migrations read the models'
    declared Meta, so no migration follows."""

    model_names: dict = {}

    def ready(self) -> None:
        super().ready()
        for model_name, (singular, plural) in self.model_names.items():
            options = self.get_model(model_name)._meta
            options.verbose_name, options.verbose_name_plural = singular, plural


class AuthenticatorAppsConfig(_ModelNamesMixin, OtpTotpConfig):
    """django-otp's TOTP devices: the authenticator apps of two-factor sign-in."""

    verbose_name = _("Two-factor: authenticator apps")
    model_names = {
        "TOTPDevice": (_("authenticator device"), _("authenticator devices")),
    }


class BackupCodesConfig(_ModelNamesMixin, OtpStaticConfig):
    """django-otp's static devices: the backup codes of two-factor sign-in."""

    verbose_name = _("Two-factor: backup codes")
    model_names = {
        "StaticDevice": (_("backup code set"), _("backup code sets")),
        "StaticToken": (_("backup code"), _("backup codes")),
    }


class EnrolmentCodesConfig(_ModelNamesMixin, OtpEmailConfig):
    """django-otp's e-mail devices: here only the codes that let a first
    authenticator be enrolled (accounts/enrolment.py), never a second factor."""

    verbose_name = _("Two-factor: enrolment codes")
    model_names = {
        "EmailDevice": (_("enrolment code"), _("enrolment codes")),
    }
