"""The admin's login form (password, then a one-time code when the user has a
device) and the form that takes a code on the two-factor page."""

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.signals import user_login_failed
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _
from django_otp import match_token, user_has_device

TOKEN_MAX_LENGTH = 16


class OneTimeCodeInput(forms.TextInput):
    """A code is spent or wrong once sent: like a password, it is never shown
    again (a login page echoing it would also tell which answer came back)."""

    def format_value(self, value):
        return None


def token_field(**kwargs) -> forms.CharField:
    return forms.CharField(
        label=_("Authentication code"),
        max_length=TOKEN_MAX_LENGTH,
        help_text=_(
            "The six digits your authenticator app shows, or one of your backup codes."
        ),
        widget=OneTimeCodeInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}
        ),
        **kwargs,
    )


def clean_token(value: str) -> str:
    return "".join(value.split())


class AdminLoginForm(AdminAuthenticationForm):
    """Django's admin login, asking for a one-time code with the password of a user
    who has a device.

    Every refusal reads the same, whether the password or the code was wrong: a
    message owed only to a right password ("now give the code") would tell anyone
    trying passwords for an account with two factors which one is right.
    """

    otp_token = token_field(required=False)

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "invalid_login": _(
            "Please enter the correct %(username)s and password for a staff "
            "account, and the code from your authenticator app if your account "
            "signs in with two factors. Note that the fields may be case-sensitive."
        ),
    }

    def clean_username(self) -> str:
        # Django gives the field its max_length after the field is made, so the
        # length shows on the widget but is never checked: a longer name reached
        # django-axes, whose column holds 255 characters, and PostgreSQL's refusal
        # to store it was a server error. No such name can sign in anyway.
        username = self.cleaned_data["username"]
        MaxLengthValidator(self.fields["username"].max_length)(username)
        return username

    def clean(self):
        cleaned = super().clean()
        user = self.user_cache
        if user is None or not user_has_device(user):
            return cleaned
        token = clean_token(cleaned.get("otp_token") or "")
        device = match_token(user, token) if token else None
        if device is None:
            # A right password with a wrong code is a failed login: it counts
            # towards the lockout and goes into the audit trail.
            user_login_failed.send(
                sender=__name__,
                credentials={"username": user.get_username()},
                request=self.request,
            )
            raise self.get_invalid_login_error()
        # django_otp marks the session verified when the login completes.
        user.otp_device = device
        return cleaned


class TokenForm(forms.Form):
    otp_token = token_field()

    def clean_otp_token(self) -> str:
        return clean_token(self.cleaned_data["otp_token"])


class EnrolmentCodeForm(forms.Form):
    enrolment_code = forms.CharField(
        label=_("Enrolment code"),
        max_length=TOKEN_MAX_LENGTH,
        help_text=_(
            "The code e-mailed to you, or the invitation code an administrator "
            "gave you."
        ),
        widget=OneTimeCodeInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}
        ),
    )
