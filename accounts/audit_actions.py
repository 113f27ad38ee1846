"""The sign-in verbs of the audit trail (the audit app imports this at startup)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import register


class Action:
    """What signing in, a password change and two-factor enrolment record."""

    LOGGED_IN = register("logged_in", _("Logged in"))
    LOGIN_FAILED = register("login_failed", _("Login failed"))
    LOCKED_OUT = register("locked_out", _("Locked out"))
    PASSWORD_CHANGED = register("password_changed", _("Password changed"))
    TWO_FACTOR_ENROLLED = register(
        "two_factor_enrolled", _("Two-factor sign-in set up")
    )
