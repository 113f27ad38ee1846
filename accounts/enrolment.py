"""Who may enrol a first authenticator.

A password alone must not be enough to become the owner of an account's second
factor: whoever stole it would enrol their own phone. A first enrolment therefore
asks for a one-time enrolment code as well, which proves a second thing: the
account's e-mail (the code is sent there on request) or an administrator's word
(an invitation, whose code the administrator hands over). Both are the token of
one django-otp e-mail device per user, left unconfirmed so that it never counts as
a second factor itself: django-otp matches sign-in codes against confirmed devices
only. Its throttling (each wrong code doubles the wait) and cooldown (one e-mail a
minute) are the library's.
"""

import logging
from datetime import timedelta
from smtplib import SMTPException

from django.conf import settings
from django.contrib.auth import get_permission_codename
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_otp.plugins.otp_email.models import EmailDevice

from audit.services import audit_record

from .audit_actions import Action

logger = logging.getLogger(__name__)

DEVICE_NAME = "enrolment"
# The session remembers who proved themselves, so a code cannot open another
# account's enrolment in the same browser.
SESSION_KEY = "two_factor_enrolment_for"


def _device_of(user: AbstractBaseUser) -> EmailDevice:
    device, _created = EmailDevice.objects.get_or_create(
        user=user, name=DEVICE_NAME, defaults={"confirmed": False}
    )
    return device


def masked_email(address: str) -> str:
    """n***@example.org: enough for the owner to recognise, little for anyone else."""
    local, _at, domain = address.partition("@")
    return f"{local[:1]}***@{domain}" if domain else ""


def enrolment_code_send(*, by: AbstractBaseUser) -> None:
    """E-mail `by` a code that lets them enrol an authenticator; ValidationError
    names the problem (no address, asked again too soon)."""
    if not by.email:
        raise ValidationError(
            _(
                "Your account has no e-mail address to send a code to. Ask an "
                "administrator for an invitation code."
            )
        )
    device = _device_of(by)
    allowed, _why = device.generate_is_allowed()
    if not allowed:
        raise ValidationError(
            _("A code was sent a moment ago. Wait a minute before asking again.")
        )
    try:
        device.generate_challenge()
    except (OSError, SMTPException):
        logger.exception("The enrolment code for user %s could not be sent", by.pk)
        raise ValidationError(
            _(
                "The code could not be sent just now. Try again in a few minutes, "
                "or ask an administrator for an invitation code."
            )
        ) from None
    audit_record(
        by=by,
        action=Action.ENROLMENT_CODE_SENT,
        obj=by,
        message=masked_email(by.email),
    )


@transaction.atomic
def enrolment_invite(*, user: AbstractBaseUser, by: AbstractBaseUser) -> str:
    """An invitation code for `user`'s first enrolment, to be handed over by the
    administrator `by` (shown once, never stored in the clear elsewhere)."""
    # Whoever may change accounts (administrators: no role holds it).
    opts = user._meta
    if not by.has_perm(f"{opts.app_label}.{get_permission_codename('change', opts)}"):
        raise PermissionDenied(_("Only administrators invite accounts to enrol."))
    device = _device_of(user)
    hours = settings.TWO_FACTOR_INVITATION_HOURS
    device.generate_token(length=8, valid_secs=int(hours * 3600), commit=True)
    audit_record(
        by=by,
        action=Action.ENROLMENT_INVITED,
        obj=user,
        message=_("Invitation code valid until %(until)s.")
        % {"until": timezone.localtime(timezone.now() + timedelta(hours=hours))},
    )
    return device.token


def enrolment_unlock(*, request, code: str) -> None:
    """Let this session enrol an authenticator for its user, given the e-mailed or
    invitation code; ValidationError when the code is wrong, spent or expired."""
    user = request.user
    device = EmailDevice.objects.filter(user=user, name=DEVICE_NAME).first()
    if device is None or not device.verify_token("".join(code.split())):
        raise ValidationError(
            _("That enrolment code is wrong, spent or expired. Ask for a new one.")
        )
    request.session[SESSION_KEY] = user.pk


def enrolment_unlocked(request) -> bool:
    return request.session.get(SESSION_KEY) == request.user.pk


def enrolment_done(request) -> None:
    request.session.pop(SESSION_KEY, None)
