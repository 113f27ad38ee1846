"""Logins, failed logins, lockouts and password changes go into the audit trail
(connected in AccountsConfig.ready())."""

from axes.helpers import get_client_ip_address
from django.contrib.auth import get_user_model

from audit.middleware import current_actor
from audit.services import audit_record

from .audit_actions import Action
from .two_factor import two_factor_required

User = get_user_model()
# A typed user name is the attacker's text: keep the trail's entries short.
NAME_LIMIT = 150


def _address(request) -> str:
    if request is None:
        return "-"
    return get_client_ip_address(request) or "-"


def _user_named(username: str):
    return User.objects.filter(**{User.USERNAME_FIELD: username}).first()


def audit_login(sender, request, user, **kwargs) -> None:
    if two_factor_required(user):
        audit_record(
            by=user,
            action=Action.PASSWORD_ACCEPTED,
            obj=user,
            message=f"from {_address(request)}",
        )
        # The login form took the code with the password (the user has a device).
        if getattr(user, "otp_device", None) is None:
            return
    audit_login_complete(request, user)


def audit_login_complete(request, user, *, how: str = "") -> None:
    """The session is open: the password, and the second factor where one is due."""
    audit_record(
        by=user,
        action=Action.LOGGED_IN,
        obj=user,
        message=" ".join(filter(None, [f"from {_address(request)}", how])),
    )


def audit_login_failed(sender, credentials, request=None, **kwargs) -> None:
    username = str(credentials.get("username") or "")[:NAME_LIMIT]
    audit_record(
        by=None,
        action=Action.LOGIN_FAILED,
        obj=_user_named(username) if username else None,
        message=f"user name {username!r} from {_address(request)}",
    )


def audit_locked_out(sender, request, username, ip_address, **kwargs) -> None:
    username = str(username or "")[:NAME_LIMIT]
    audit_record(
        by=None,
        action=Action.LOCKED_OUT,
        obj=_user_named(username) if username else None,
        message=f"user name {username!r} from {ip_address or '-'}",
    )


def note_password_change(sender, instance, update_fields=None, **kwargs) -> None:
    # Every door that sets a password (the admin, the user's own change page, the
    # changepassword command) ends in this save; the login's last_login save does not.
    if instance.pk is None or (update_fields and "password" not in update_fields):
        return
    stored = User.objects.filter(pk=instance.pk).values_list("password", flat=True)
    instance._password_changed = stored.first() not in (None, instance.password)


def audit_password_change(sender, instance, created, **kwargs) -> None:
    if created or not getattr(instance, "_password_changed", False):
        return
    instance._password_changed = False
    audit_record(
        by=current_actor(),
        action=Action.PASSWORD_CHANGED,
        obj=instance,
    )
