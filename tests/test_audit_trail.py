"""The audit trail: append-only, read-only in the admin, and it records imports,
role changes and workflow moves without a legal name."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from articles.audit_actions import Action as EditorialAction
from audit.actions import Action
from audit.models import AuditEvent
from core.roles import EDITORS
from ingest.audit_actions import Action as ImportAction
from tests.factories import SuperuserFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_an_event_cannot_be_changed_or_deleted():
    """Once written, an event stays as it is."""
    event = AuditEvent.objects.create(action=Action.CHANGED)
    event.message = "rewritten"
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()


def test_the_admin_offers_no_way_to_edit_events(client):
    """Even a superuser gets no add, change or delete page for events."""
    client.force_login(SuperuserFactory())
    event = AuditEvent.objects.create(action=Action.CHANGED)
    assert client.get(reverse("admin:audit_auditevent_add")).status_code == 403
    url = reverse("admin:audit_auditevent_delete", args=[event.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_giving_someone_a_role_is_recorded(client):
    """Adding a user to the editors' group writes who did it and what changed."""
    chief = SuperuserFactory()
    reporter = UserFactory(username="salma")
    client.force_login(chief)
    url = reverse("admin:auth_user_change", args=[reporter.pk])
    data = {
        "username": "salma",
        "first_name": "",
        "last_name": "",
        "email": "",
        "is_active": "on",
        "is_staff": "on",
        "groups": [Group.objects.get(name=EDITORS).pk],
        "last_login_0": "",
        "last_login_1": "",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    event = AuditEvent.objects.get(action=Action.ROLES_CHANGED)
    assert event.actor == chief
    assert event.message == f"- → {EDITORS}"


def test_an_import_records_where_the_story_came_from(client, tmp_path):
    """The import event names the file, or says the text was pasted."""
    from django.core.management import call_command

    SuperuserFactory(username="chief")
    path = tmp_path / "agency-copy.txt"
    path.write_text("عنوان الخبر\n\nالفقرة الأولى من الخبر.", encoding="utf-8")
    call_command("import_story", str(path), "--user", "chief", stdout=None)
    event = AuditEvent.objects.get(action=ImportAction.IMPORTED)
    assert event.message == "agency-copy.txt"


def test_the_trail_filters_by_user_action_and_story(client):
    """Editors read the trail filtered by who, what and which story."""
    # A name without digits: the search for story 13 also reads the actor's
    # name, and the factory's "editor13" would match it.
    chief = SuperuserFactory(username="chief")
    client.force_login(chief)
    AuditEvent.objects.create(action=EditorialAction.KILLED, object_id="12")
    AuditEvent.objects.create(action=Action.CHANGED, object_id="13")
    url = reverse("admin:audit_auditevent_changelist")
    killed = client.get(url, {"action": "killed"}).context["cl"].result_list
    assert [e.object_id for e in killed] == ["12"]
    story = client.get(url, {"q": "13"}).context["cl"].result_list
    assert [e.object_id for e in story] == ["13"]
