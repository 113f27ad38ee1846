"""Who must sign in with a second factor, and enrolling a device for it.

The rule is one setting, OTP_REQUIRED_FOR_PERMISSIONS: a staff member holding any
of those permissions (in production: publishing and reading legal names) cannot use
the admin until a one-time code from their authenticator app, or a backup code, has
verified their session. A user who has a device is always asked for a code.
"""

from base64 import b32encode

import segno
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from audit.services import audit_record

from .audit_actions import Action

BACKUP_CODE_COUNT = 10
DEVICE_NAME = "authenticator"
BACKUP_DEVICE_NAME = "backup codes"


def two_factor_required(user: AbstractBaseUser) -> bool:
    """True when the user's permissions call for a second factor."""
    required = settings.OTP_REQUIRED_FOR_PERMISSIONS
    if not required or not user.is_authenticated or not user.is_staff:
        return False
    return any(user.has_perm(permission) for permission in required)


def two_factor_pending(user: AbstractBaseUser) -> bool:
    """True when the session has yet to be verified with a code it needs."""
    return two_factor_required(user) and not user.is_verified()


def two_factor_device_pending(*, by: AbstractBaseUser) -> TOTPDevice:
    """The user's authenticator waiting to be confirmed, made on first asking."""
    device = TOTPDevice.objects.filter(user=by, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(user=by, name=DEVICE_NAME, confirmed=False)
    return device


def otpauth_uri(device: TOTPDevice) -> str:
    return device.config_url


def otpauth_secret(device: TOTPDevice) -> str:
    """The key as authenticator apps take it typed in: base32, in groups of four."""
    secret = b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def otpauth_qr_svg(device: TOTPDevice) -> str:
    """The otpauth address as an inline SVG QR code (no script, no outside image)."""
    return segno.make(device.config_url, error="m").svg_inline(
        scale=4, dark="#000", light="#fff", omitsize=False
    )


@transaction.atomic
def two_factor_enrol(*, by: AbstractBaseUser, token: str) -> list[str]:
    """Confirm the user's pending authenticator with a code from it and issue backup
    codes; returns the codes, which are shown once."""
    device = (
        TOTPDevice.objects.select_for_update().filter(user=by, confirmed=False).first()
    )
    if device is None:
        raise ValidationError(_("There is no authenticator waiting to be confirmed."))
    if not device.verify_token(token.replace(" ", "")):
        raise ValidationError(
            _("That code is not the one your authenticator shows now. Try again.")
        )
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    backup, _created = StaticDevice.objects.get_or_create(
        user=by, name=BACKUP_DEVICE_NAME, defaults={"confirmed": True}
    )
    backup.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(BACKUP_CODE_COUNT)]
    StaticToken.objects.bulk_create(
        [StaticToken(device=backup, token=code) for code in codes]
    )
    audit_record(
        by=by,
        action=Action.TWO_FACTOR_ENROLLED,
        obj=by,
        message=_("Authenticator confirmed; %(count)d backup codes issued.")
        % {"count": BACKUP_CODE_COUNT},
    )
    return codes
