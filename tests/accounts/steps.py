"""The steps of signing in with two factors, as a person takes them."""

import re

from django.contrib.auth.models import Group
from django.core import mail
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from articles import permissions as perms
from tests.factories import UserFactory

PASSWORD = "pass-for-tests"
PRODUCTION_RULE = list(perms.SECOND_FACTOR)


def member(name: str, group: str, **fields):
    fields.setdefault("email", f"{name}@newsroom.test")
    user = UserFactory(username=name, is_staff=True, **fields)
    user.groups.add(Group.objects.get(name=group))
    return user


def code_for(device: TOTPDevice) -> str:
    return f"{totp(device.bin_key, step=device.step, digits=device.digits):06d}"


def mailed_code() -> str:
    """The enrolment code of the last e-mail sent."""
    return re.search(r"^\s*(\d{6})\s*$", mail.outbox[-1].body, re.MULTILINE)[1]


def unlock_enrolment(client) -> None:
    """The first step of a first enrolment: the code e-mailed to the account."""
    mail.outbox.clear()
    client.post(reverse("two-factor"), {"send_code": "1"})
    client.post(reverse("two-factor"), {"enrolment_code": mailed_code()})


def enrol(client, user) -> tuple[TOTPDevice, list[str]]:
    client.force_login(user)
    unlock_enrolment(client)
    client.get(reverse("two-factor"))
    device = TOTPDevice.objects.get(user=user)
    response = client.post(reverse("two-factor"), {"otp_token": code_for(device)})
    codes = re.findall(r"<code>(\w+)</code>", response.content.decode())
    # The next login must not reuse the code just spent (TOTP refuses replays).
    device.refresh_from_db()
    device.last_t -= 1
    device.save()
    return device, codes
