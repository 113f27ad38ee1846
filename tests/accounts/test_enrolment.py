"""A first authenticator is enrolled only by someone who proves more than the
password: a code e-mailed to the account, or an administrator's invitation code."""

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.audit_actions import Action
from accounts.enrolment import enrolment_invite
from audit.models import AuditEvent
from core.roles import EDITORS, SOURCE_MANAGERS
from tests.accounts.steps import mailed_code, member
from tests.core.test_faults import closed_port
from tests.factories import SuperuserFactory

pytestmark = pytest.mark.django_db


def page(client) -> str:
    return client.get(reverse("two-factor")).content.decode()


def test_a_password_alone_shows_no_authenticator_key(client, required):
    """Whoever has only the password gets no QR code, no key and no device."""
    user = member("nour", EDITORS)
    client.force_login(user)
    text = page(client)
    assert "otpauth://" not in text and "otp-qr" not in text
    assert not TOTPDevice.objects.filter(user=user).exists()
    assert 'name="enrolment_code"' in text


def test_the_code_goes_to_the_accounts_address(client, required):
    """Asking sends one e-mail, to the account's own address, and the page names
    that address only in part."""
    client.force_login(member("nour", EDITORS))
    client.cookies["django_language"] = "en"
    response = client.post(reverse("two-factor"), {"send_code": "1"})
    [message] = mail.outbox
    assert message.to == ["nour@newsroom.test"]
    text = response.content.decode()
    assert "n***@newsroom.test" in text and "nour@newsroom.test" not in text


def test_the_mailed_code_opens_the_enrolment(client, required):
    """With the e-mailed code the page shows the authenticator's key."""
    client.force_login(member("nour", EDITORS))
    client.post(reverse("two-factor"), {"send_code": "1"})
    client.post(reverse("two-factor"), {"enrolment_code": mailed_code()})
    assert "otpauth://" in page(client)


def test_a_wrong_enrolment_code_is_refused_and_says_so(client, required):
    client.force_login(member("nour", EDITORS))
    client.cookies["django_language"] = "en"
    client.post(reverse("two-factor"), {"send_code": "1"})
    wrong = "000000" if mailed_code() != "000000" else "111111"
    response = client.post(reverse("two-factor"), {"enrolment_code": wrong})
    assert "wrong, spent or expired" in response.content.decode()
    assert "otpauth://" not in page(client)


def test_a_mailed_code_works_once(client, required):
    """A code spent in one session opens nothing in another."""
    user = member("nour", EDITORS)
    client.force_login(user)
    client.post(reverse("two-factor"), {"send_code": "1"})
    code = mailed_code()
    client.post(reverse("two-factor"), {"enrolment_code": code})
    client.logout()
    client.force_login(user)
    client.post(reverse("two-factor"), {"enrolment_code": code})
    assert "otpauth://" not in page(client)


def test_asking_again_at_once_sends_nothing_and_says_why(client, required):
    client.force_login(member("nour", EDITORS))
    client.cookies["django_language"] = "en"
    client.post(reverse("two-factor"), {"send_code": "1"})
    response = client.post(reverse("two-factor"), {"send_code": "1"})
    assert len(mail.outbox) == 1
    assert "Wait a minute" in response.content.decode()


def test_an_account_without_an_address_is_sent_to_an_administrator(client, required):
    client.force_login(member("nour", EDITORS, email=""))
    client.cookies["django_language"] = "en"
    text = page(client)
    assert "Ask an administrator for an invitation code" in text
    assert 'name="send_code"' not in text


def test_an_invitation_code_opens_the_enrolment(client, required):
    """The code an administrator hands over works as the e-mailed one does."""
    user = member("nour", EDITORS, email="")
    code = enrolment_invite(user=user, by=SuperuserFactory())
    client.force_login(user)
    client.post(reverse("two-factor"), {"enrolment_code": code})
    assert "otpauth://" in page(client)


def test_only_administrators_invite(required):
    """A source manager (who may change much, but not accounts) cannot invite."""
    with pytest.raises(PermissionDenied):
        enrolment_invite(
            user=member("nour", EDITORS), by=member("hadi", SOURCE_MANAGERS)
        )


def test_one_accounts_code_does_not_open_anothers_enrolment(client, required):
    """An invitation belongs to the account it was made for."""
    nour, hadi = member("nour", EDITORS), member("hadi", EDITORS)
    code = enrolment_invite(user=nour, by=SuperuserFactory())
    client.force_login(hadi)
    client.post(reverse("two-factor"), {"enrolment_code": code})
    assert "otpauth://" not in page(client)


def test_the_accounts_admin_shows_invitation_codes_once(client):
    """The list action shows each code on a page no cache keeps, and the trail
    records the invitation, never the code."""
    administrator = SuperuserFactory()
    user = member("nour", EDITORS)
    client.force_login(administrator)
    response = client.post(
        reverse("admin:auth_user_changelist"),
        {"action": "invite_to_enrol", "_selected_action": [user.pk]},
    )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    [code] = response.context["invitations"][0][1:]
    assert f">{code}<" in response.content.decode()
    event = AuditEvent.objects.get(action=Action.ENROLMENT_INVITED)
    assert code not in event.message


def test_a_mail_server_that_is_down_gets_a_message_not_an_error(
    client, required, settings
):
    """The code cannot go out: the page says so and offers the other way."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", closed_port()
    client.force_login(member("nour", EDITORS))
    client.cookies["django_language"] = "en"
    response = client.post(reverse("two-factor"), {"send_code": "1"})
    assert response.status_code == 200
    assert "could not be sent just now" in response.content.decode()
