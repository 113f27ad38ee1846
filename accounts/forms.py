"""The admin's login form (password, then a one-time code when the user has a
device) and the form that takes a code on the two-factor page."""

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.signals import user_login_failed
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _
from django_otp import match_token, user_has_device

TOKEN_MAX_LENGTH = 16


def token_field(**kwargs) -> forms.CharField:
    return forms.CharField(
        label=_("Authentication code"),
        max_length=TOKEN_MAX_LENGTH,
        help_text=_(
            "The six digits your authenticator app shows, or one of your backup codes."
        ),
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}
        ),
        **kwargs,
    )


def clean_token(value: str) -> str:
    return "".join(value.split())


class AdminLoginForm(AdminAuthenticationForm):
    """Django's admin login, asking for a one-time code once the password is right
    for a user who has a device."""

    otp_token = token_field(required=False)

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "token_required": _(
            "This account signs in with two factors: enter the code from your "
            "authenticator app or a backup code."
        ),
        "invalid_token": _(
            "The authentication code is wrong or has expired. Enter the code your "
            "app shows now."
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
            code = "invalid_token" if token else "token_required"
            raise forms.ValidationError(self.error_messages[code], code=code)
        # django_otp marks the session verified when the login completes.
        user.otp_device = device
        return cleaned


class TokenForm(forms.Form):
    otp_token = token_field()

    def clean_otp_token(self) -> str:
        return clean_token(self.cleaned_data["otp_token"])
