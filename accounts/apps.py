from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from axes.signals import user_locked_out
        from django.contrib.auth.signals import user_logged_in, user_login_failed
        from django.db.models.signals import post_save, pre_save

        from . import receivers

        user = receivers.User
        user_logged_in.connect(receivers.audit_login, dispatch_uid="audit_login")
        user_login_failed.connect(
            receivers.audit_login_failed, dispatch_uid="audit_login_failed"
        )
        user_locked_out.connect(
            receivers.audit_locked_out, dispatch_uid="audit_locked_out"
        )
        pre_save.connect(
            receivers.note_password_change,
            sender=user,
            dispatch_uid="audit_password_before",
        )
        post_save.connect(
            receivers.audit_password_change,
            sender=user,
            dispatch_uid="audit_password_after",
        )
