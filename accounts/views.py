"""The two-factor page of the admin (enrol an authenticator, or verify a session
with a code) and the page a locked-out login gets."""

from math import ceil
from urllib.parse import urlencode

import django_otp
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_otp import match_token, user_has_device

from .enrolment import (
    enrolment_code_send,
    enrolment_done,
    enrolment_unlock,
    enrolment_unlocked,
    masked_email,
)
from .forms import AdminLoginForm, EnrolmentCodeForm, TokenForm
from .receivers import audit_login_complete
from .two_factor import (
    otpauth_qr_svg,
    otpauth_secret,
    otpauth_uri,
    two_factor_device_pending,
    two_factor_enrol,
)

TEMPLATE = "admin/accounts/two_factor.html"


def _next_url(request) -> str:
    wanted = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(
        REDIRECT_FIELD_NAME, ""
    )
    if url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("admin:index")


def two_factor(request):
    """Verify this session with a code, or enrol an authenticator if there is none."""
    user = request.user
    context = {
        **admin.site.each_context(request),
        "title": _("Two-factor sign-in"),
        "next": _next_url(request),
    }
    form = TokenForm(request.POST or None)
    if user_has_device(user):
        if form.is_valid():
            device = match_token(user, form.cleaned_data["otp_token"])
            if device is not None:
                django_otp.login(request, device)
                audit_login_complete(request, user, how="with a second factor")
                return redirect(context["next"])
            # As on the login form: a wrong code counts towards the lockout.
            user_login_failed.send(
                sender=__name__,
                credentials={"username": user.get_username()},
                request=request,
            )
            form.add_error("otp_token", _("That code is wrong or has expired."))
        return render(request, TEMPLATE, {**context, "form": form, "mode": "verify"})

    if not enrolment_unlocked(request):
        return _enrolment_proof(request, context)
    device = two_factor_device_pending(by=user)
    if form.is_valid():
        try:
            codes = two_factor_enrol(by=user, token=form.cleaned_data["otp_token"])
        except ValidationError as error:
            form.add_error("otp_token", error)
        else:
            enrolment_done(request)
            device.refresh_from_db()
            django_otp.login(request, device)
            audit_login_complete(request, user, how="with a new second factor")
            return render(
                request, TEMPLATE, {**context, "codes": codes, "mode": "codes"}
            )
    return render(
        request,
        TEMPLATE,
        {
            **context,
            "form": form,
            "mode": "enrol",
            "qr_svg": otpauth_qr_svg(device),
            "uri": otpauth_uri(device),
            "secret": otpauth_secret(device),
        },
    )


def _enrolment_proof(request, context):
    """Before a first authenticator: the code e-mailed on request, or an
    administrator's invitation code (accounts/enrolment.py)."""
    user = request.user
    form = EnrolmentCodeForm(request.POST if "enrolment_code" in request.POST else None)
    sent, refused = False, []
    if request.method == "POST" and "send_code" in request.POST:
        try:
            enrolment_code_send(by=user)
            sent = True
        except ValidationError as error:
            refused = error.messages
    elif form.is_valid():
        try:
            enrolment_unlock(request=request, code=form.cleaned_data["enrolment_code"])
        except ValidationError as error:
            form.add_error("enrolment_code", error)
        else:
            query = urlencode({REDIRECT_FIELD_NAME: context["next"]})
            return redirect(f"{reverse('two-factor')}?{query}")
    return render(
        request,
        TEMPLATE,
        {
            **context,
            "form": form,
            "mode": "prove",
            "sent": sent,
            "refused": refused,
            "email": masked_email(user.email),
        },
    )


def lockout_message() -> str:
    minutes = max(1, ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return ngettext(
        "Too many failed logins from this address: signing in to this account "
        "from here is refused for %(minutes)d minute. Wait that long without "
        "trying (each attempt starts the wait again), or ask an administrator "
        "to unlock it.",
        "Too many failed logins from this address: signing in to this account "
        "from here is refused for %(minutes)d minutes. Wait that long without "
        "trying (each attempt starts the wait again), or ask an administrator "
        "to unlock it.",
        minutes,
    ) % {"minutes": minutes}


def locked_out(request, original_response=None, credentials=None):
    """Axes's answer to a locked-out login: the login page saying so, with 429."""
    context = {
        **admin.site.each_context(request),
        "title": _("Log in"),
        "app_path": request.get_full_path(),
        "form": AdminLoginForm(request),
        "lockout_message": lockout_message(),
        REDIRECT_FIELD_NAME: _next_url(request),
    }
    response = render(request, "admin/login.html", context, status=429)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
