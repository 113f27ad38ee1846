"""Two-factor sign-in: required (in production) for whoever can publish or read legal
names; enrolment with an authenticator and backup codes; the login asking for a code."""

import re
from base64 import b32decode

import pytest
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.audit_actions import Action
from audit.models import AuditEvent
from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS, SOURCE_MANAGERS
from tests.accounts.steps import (
    PASSWORD,
    PRODUCTION_RULE,
    code_for,
    enrol,
    member,
    unlock_enrolment,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("group", [EDITORS, IDENTITY_OFFICERS, SOURCE_MANAGERS])
def test_roles_that_publish_read_legal_names_or_reach_outside_are_sent_to_enrol(
    client, required, group
):
    """An editor, identity officer or source manager (who makes the server fetch
    feeds, send webhooks and hand out partners' keys) without a device cannot
    reach the desk."""
    client.force_login(member("nour", group))
    response = client.get(reverse("admin:articles_article_changelist"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("two-factor"))


def test_superusers_are_sent_to_enrol_too(admin_client, required):
    """A superuser holds every permission, so needs the second factor."""
    assert admin_client.get(reverse("admin:index")).status_code == 302


def test_a_reporter_is_not_asked_for_a_second_factor(client, required):
    """Reporters neither publish nor read legal names."""
    client.force_login(member("rami", REPORTERS))
    assert client.get(reverse("admin:index")).status_code == 200


def test_without_the_setting_nobody_is_sent_to_enrol(client):
    """Development and tests leave the rule off (the demo's login says so)."""
    client.force_login(member("nour", EDITORS))
    assert client.get(reverse("admin:index")).status_code == 200


def test_the_enrolment_page_shows_a_qr_code_and_the_key(client, required):
    """The page draws the otpauth address as an SVG QR code and prints the key."""
    user = member("nour", EDITORS)
    client.force_login(user)
    unlock_enrolment(client)
    response = client.get(reverse("two-factor"))
    text = response.content.decode()
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    assert "<svg" in text and "otpauth://totp/" in text
    secret = re.search(r'class="otp-secret" dir="ltr">([A-Z2-7 ]+)<', text)[1]
    key = secret.replace(" ", "")
    assert b32decode(key + "=" * (-len(key) % 8)) == device.bin_key


def test_a_right_code_confirms_the_device_and_issues_backup_codes(client, required):
    """Confirming enrols the device, shows ten backup codes and opens the desk."""
    user = member("nour", EDITORS)
    device, codes = enrol(client, user)
    assert device.confirmed
    assert len(codes) == 10
    assert StaticToken.objects.filter(device__user=user).count() == 10
    assert client.get(reverse("admin:index")).status_code == 200
    assert AuditEvent.objects.filter(
        action=Action.TWO_FACTOR_ENROLLED, actor=user
    ).exists()


def test_a_wrong_code_does_not_confirm_the_device(client, required):
    """A wrong code leaves the device unconfirmed and says so."""
    user = member("nour", EDITORS)
    client.force_login(user)
    unlock_enrolment(client)
    client.get(reverse("two-factor"))
    response = client.post(reverse("two-factor"), {"otp_token": "000000"})
    assert response.status_code == 200
    assert not TOTPDevice.objects.get(user=user).confirmed
    assert client.get(reverse("admin:index")).status_code == 302


def test_the_login_asks_an_enrolled_user_for_the_code(client, required):
    """Password alone is not enough once a device exists."""
    user = member("nour", EDITORS)
    enrol(client, user)
    client.logout()
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("admin:login"), {"username": "nour", "password": PASSWORD}
    )
    assert response.status_code == 200
    assert "the code from your authenticator app" in response.content.decode()
    assert client.get(reverse("admin:index")).status_code == 302


def test_the_login_with_the_right_code_opens_the_desk(client, required):
    """Password and a current code log in with a verified session."""
    user = member("nour", EDITORS)
    device, _codes = enrol(client, user)
    client.logout()
    response = client.post(
        reverse("admin:login"),
        {"username": "nour", "password": PASSWORD, "otp_token": code_for(device)},
    )
    assert response.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200


def test_a_backup_code_logs_in_once(client, required):
    """A backup code replaces the app's code, and is spent by using it."""
    user = member("nour", EDITORS)
    _device, codes = enrol(client, user)
    client.logout()
    data = {"username": "nour", "password": PASSWORD, "otp_token": codes[0]}
    assert client.post(reverse("admin:login"), data).status_code == 302
    client.logout()
    assert client.post(reverse("admin:login"), data).status_code == 200


def test_a_wrong_code_counts_as_a_failed_login(client, required):
    """A right password with a wrong code is audited as a failure."""
    user = member("nour", EDITORS)
    enrol(client, user)
    client.logout()
    logins = AuditEvent.objects.filter(action=Action.LOGGED_IN).count()
    client.post(
        reverse("admin:login"),
        {"username": "nour", "password": PASSWORD, "otp_token": "123456"},
    )
    assert AuditEvent.objects.filter(action=Action.LOGIN_FAILED).exists()
    assert AuditEvent.objects.filter(action=Action.LOGGED_IN).count() == logins


def test_a_session_without_a_code_is_asked_for_one(client, required):
    """An enrolled user whose session was not verified gets the code page, not the
    enrolment page, and the right code lets them through."""
    user = member("nour", EDITORS)
    device, _codes = enrol(client, user)
    client.logout()
    client.force_login(user)
    response = client.get(reverse("two-factor"))
    assert "otpauth://" not in response.content.decode()
    response = client.post(
        reverse("two-factor") + "?next=/admin/articles/article/",
        {"otp_token": code_for(device)},
    )
    assert response.status_code == 302
    assert response["Location"] == "/admin/articles/article/"


def actions_of(user) -> list[str]:
    return list(
        AuditEvent.objects.filter(object_id=str(user.pk))
        .filter(action__in=[Action.PASSWORD_ACCEPTED, Action.LOGGED_IN])
        .order_by("pk")
        .values_list("action", flat=True)
    )


def test_a_password_alone_is_not_audited_as_a_login(client, required):
    """Someone who owes a second factor has given only the password: the trail says
    so, and says "logged in" only once the code is given."""
    user = member("nour", EDITORS)
    client.post(reverse("admin:login"), {"username": "nour", "password": PASSWORD})
    assert actions_of(user) == [Action.PASSWORD_ACCEPTED]
    unlock_enrolment(client)
    client.get(reverse("two-factor"))
    device = TOTPDevice.objects.get(user=user)
    client.post(reverse("two-factor"), {"otp_token": code_for(device)})
    assert actions_of(user) == [Action.PASSWORD_ACCEPTED, Action.LOGGED_IN]


def test_password_and_code_together_are_two_steps_of_one_login(client, required):
    user = member("nour", EDITORS)
    device, _codes = enrol(client, user)
    client.logout()
    AuditEvent.objects.all().delete()
    client.post(
        reverse("admin:login"),
        {"username": "nour", "password": PASSWORD, "otp_token": code_for(device)},
    )
    assert actions_of(user) == [Action.PASSWORD_ACCEPTED, Action.LOGGED_IN]


def test_a_wrong_code_on_the_code_page_is_a_failed_login(client, required):
    user = member("nour", EDITORS)
    enrol(client, user)
    client.logout()
    client.force_login(user)
    client.post(reverse("two-factor"), {"otp_token": "000000"})
    assert AuditEvent.objects.filter(action=Action.LOGIN_FAILED).exists()


def test_without_a_second_factor_due_the_password_is_the_login(client):
    user = member("samar", REPORTERS)
    client.post(reverse("admin:login"), {"username": "samar", "password": PASSWORD})
    assert actions_of(user) == [Action.LOGGED_IN]


def test_the_code_page_refuses_to_send_elsewhere(client, required):
    """`next` pointing off the site falls back to the desk."""
    user = member("nour", EDITORS)
    device, _codes = enrol(client, user)
    client.force_login(user)
    response = client.post(
        reverse("two-factor") + "?next=https://evil.example/",
        {"otp_token": code_for(device)},
    )
    assert response["Location"] == reverse("admin:index")


def test_production_requires_two_factor_for_publishing_and_legal_names():
    """The production settings turn the rule on (development leaves it off)."""
    import subprocess
    import sys
    from pathlib import Path

    env = {
        "PATH": "/usr/bin:/bin",
        "SECRET_KEY": "Zx9-" + "k2Lm8Qp4Rt7Vw1Yb3Nc6Hd0Jf5Gs" * 2,
        "ALLOWED_HOSTS": "example.com",
        "DATABASE_URL": "postgres://newsroom@db:5432/newsroom",
        "CACHE_URL": "redis://cache:6379/1",
        "TASKS_URL": "redis://cache:6379/2",
        "MEDIA_SERVED_BY": "nginx",
    }
    rule = "OTP_REQUIRED_FOR_PERMISSIONS"
    script = f"from newsroom.settings import prod; print(prod.{rule})"
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(PRODUCTION_RULE)


def login_answer(client, username: str, password: str, token: str = "") -> tuple:
    """What the login page answers, without the parts that change every time."""
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("admin:login"),
        {"username": username, "password": password, "otp_token": token},
    )
    text = re.sub(
        r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode()
    )
    return response.status_code, text.replace(username, "NAME")


def test_the_login_tells_no_right_password_from_a_wrong_one(client, required):
    """For an account with two factors, a right password with no code or a wrong
    code gets the very answer a wrong password gets: trying passwords learns
    nothing until the second factor is given too."""
    user = member("nour", EDITORS)
    device, _codes = enrol(client, user)
    client.logout()
    answers = {
        login_answer(client, "nour", "wrong-password"),
        login_answer(client, "nour", PASSWORD),
        login_answer(client, "nour", PASSWORD, "000000"),
        login_answer(client, "nour", "wrong-password", code_for(device)),
    }
    assert len(answers) == 1
    [(status, text)] = answers
    assert status == 200 and "authenticator app" in text
