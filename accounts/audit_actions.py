"""The sign-in verbs of the audit trail (the audit app imports this at startup)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import register


class Action:
    """What signing in, a password change and two-factor enrolment record."""

    LOGGED_IN = register("logged_in", _("Logged in"))
    # For whoever must give a second factor, the password alone opens nothing: it
    # is recorded as its own step, and "logged in" waits for the code.
    PASSWORD_ACCEPTED = register(
        "password_accepted", _("Password accepted, second factor awaited")
    )
    LOGIN_FAILED = register("login_failed", _("Login failed"))
    LOCKED_OUT = register("locked_out", _("Locked out"))
    PASSWORD_CHANGED = register("password_changed", _("Password changed"))
    TWO_FACTOR_ENROLLED = register(
        "two_factor_enrolled", _("Two-factor sign-in set up")
    )
    ENROLMENT_CODE_SENT = register(
        "enrolment_code_sent", _("Two-factor enrolment code e-mailed")
    )
    ENROLMENT_INVITED = register(
        "enrolment_invited", _("Invited to set up two-factor sign-in")
    )
