"""Logging in to the admin: lockout after failed attempts, and the audit trail of
logins, failures, lockouts and password changes."""

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.urls import reverse

from accounts.audit_actions import Action
from audit.models import AuditEvent
from core.roles import REPORTERS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pass-for-tests"


@pytest.fixture
def staff():
    user = UserFactory(username="salma", is_staff=True)
    user.groups.add(Group.objects.get(name=REPORTERS))
    return user


def log_in(client, username, password, address="203.0.113.7", **extra):
    return client.post(
        reverse("admin:login"),
        {"username": username, "password": password, **extra},
        REMOTE_ADDR=address,
    )


def test_a_right_password_logs_in(client, staff):
    """The admin login still works with the lockout in place."""
    response = log_in(client, "salma", PASSWORD)
    assert response.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200


def test_the_fifth_failed_login_locks_the_account(client, staff, settings):
    """After the failure limit the login page says the account is locked, and for
    how long, with 429 and Retry-After."""
    client.cookies["django_language"] = "en"
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "salma", "wrong").status_code == 200
    response = log_in(client, "salma", "wrong")
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    text = response.content.decode()
    assert 'id="lockout-message"' in text
    assert "refused for 15 minutes" in text
    assert 'id="login-form"' in text


def test_a_locked_account_refuses_even_the_right_password(client, staff, settings):
    """While locked, the right password does not log in."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "salma", "wrong")
    response = log_in(client, "salma", PASSWORD)
    assert response.status_code == 429
    assert client.get(reverse("admin:index")).status_code == 302


def test_a_stranger_cannot_lock_an_editor_out(client, staff, settings):
    """Five wrong passwords from elsewhere lock that address out, not the editor:
    the right password from the editor's own address still logs in."""
    for _ in range(settings.AXES_FAILURE_LIMIT + 2):
        log_in(client, "salma", "wrong", address="198.51.100.9")
    assert log_in(client, "salma", "wrong", address="198.51.100.9").status_code == 429
    assert log_in(client, "salma", PASSWORD, address="203.0.113.7").status_code == 302


def test_the_lockout_tells_the_editor_how_to_get_back_in(client, staff, settings):
    client.cookies["django_language"] = "en"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = log_in(client, "salma", "wrong")
    text = response.content.decode()
    assert "Wait that long without trying" in text
    assert "ask an administrator to unlock it" in text


def test_the_lockout_message_is_translated(client, staff, settings):
    """The Arabic admin shows the lockout in Arabic (once the lead translates it),
    and never Django's raw English default."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = log_in(client, "salma", "wrong")
    assert response.status_code == 429
    assert "Account locked: too many login attempts" not in response.content.decode()
    assert 'lang="ar"' in response.content.decode()


def test_a_login_is_audited(client, staff):
    """A login is in the audit trail with the user and the address."""
    log_in(client, "salma", PASSWORD)
    event = AuditEvent.objects.get(action=Action.LOGGED_IN)
    assert event.actor == staff and "203.0.113.7" in event.message


def test_a_failed_login_is_audited(client, staff):
    """A failed login names the user name tried and the address."""
    log_in(client, "salma", "wrong")
    event = AuditEvent.objects.get(action=Action.LOGIN_FAILED)
    assert event.actor is None and event.object_id == str(staff.pk)
    assert "'salma'" in event.message and "203.0.113.7" in event.message


def test_a_lockout_is_audited(client, staff, settings):
    """The lockout itself is an event of its own."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "salma", "wrong")
    event = AuditEvent.objects.get(action=Action.LOCKED_OUT)
    assert event.object_id == str(staff.pk) and "203.0.113.7" in event.message


def test_changing_ones_own_password_is_audited(client, staff):
    """The admin's password change page records who changed it."""
    client.force_login(staff)
    response = client.post(
        reverse("admin:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-long-passphrase-9",
            "new_password2": "a-new-long-passphrase-9",
        },
    )
    assert response.status_code == 302
    event = AuditEvent.objects.get(action=Action.PASSWORD_CHANGED)
    assert event.actor == staff and event.object_id == str(staff.pk)


def test_an_admin_setting_someones_password_is_audited(admin_client, editor, staff):
    """A superuser setting another user's password is recorded as the superuser."""
    response = admin_client.post(
        reverse("admin:auth_user_password_change", args=[staff.pk]),
        {
            "password1": "a-new-long-passphrase-9",
            "password2": "a-new-long-passphrase-9",
        },
    )
    assert response.status_code == 302
    event = AuditEvent.objects.get(action=Action.PASSWORD_CHANGED)
    assert event.actor == editor and event.object_id == str(staff.pk)


def test_the_changepassword_command_is_audited(staff, monkeypatch):
    """A password set from the command line is recorded without an actor."""
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "a-new-long-passphrase-9")
    call_command("changepassword", "salma", stdout=None)
    event = AuditEvent.objects.get(action=Action.PASSWORD_CHANGED)
    assert event.actor is None and event.object_id == str(staff.pk)


def test_saving_a_user_without_a_new_password_is_not_a_password_change(staff):
    """Only a changed password is recorded."""
    staff.first_name = "Salma"
    staff.save()
    assert not AuditEvent.objects.filter(action=Action.PASSWORD_CHANGED)


def test_staff_sessions_expire_after_idle_hours(client, staff, settings):
    """Each request renews the session cookie for the idle period, 8 hours."""
    client.force_login(staff)
    response = client.get(reverse("admin:index"))
    assert settings.SESSION_COOKIE_AGE == 8 * 3600
    assert response.cookies["sessionid"]["max-age"] == 8 * 3600


def test_failures_for_one_name_do_not_lock_another(client, staff, settings):
    """The lockout is per user name: a colleague at the same address still logs in."""
    UserFactory(username="rami", is_staff=True)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "salma", "wrong")
    assert log_in(client, "rami", PASSWORD).status_code == 302


def test_many_login_attempts_from_one_address_are_rate_limited(client, settings):
    """Guessing across many user names from one address answers 429."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": (3, 300)}
    for i in range(3):
        assert log_in(client, f"user{i}", "wrong").status_code == 200
    response = log_in(client, "user9", "wrong")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
