"""Audit verbs are registered by the apps that record them: the trail, its admin
list and its filter read their labels from the registry, with no migration."""

import importlib

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from django.utils import translation

from accounts.audit_actions import Action as AccountAction
from articles.audit_actions import Action as EditorialAction
from audit import actions
from audit.actions import CODE_MAX_LENGTH, label_for, register, registered
from audit.admin import ActionListFilter
from audit.models import AuditEvent
from audit.services import audit_record
from tests.factories import SuperuserFactory

NEW_VERB = "fact_checked"


@pytest.fixture
def fresh_registry(monkeypatch):
    """Verbs a test registers are forgotten when it ends."""
    monkeypatch.setattr(actions, "_labels", dict(actions._labels))


def test_every_verb_of_the_old_choices_is_registered_with_its_label():
    """The 24 verbs the column's choices listed (migration 0007) keep code and label
    (apps have registered more since, with no migration)."""
    last_choices = importlib.import_module("audit.migrations.0007_account_actions")
    old = dict(last_choices.Migration.operations[0].field.choices)
    with translation.override("en"):
        now = {code: str(label) for code, label in registered()}
    assert old.items() <= now.items()


def test_a_label_reads_in_the_active_language():
    """A registered label is translated, as the choices' labels were."""
    with translation.override("ar"):
        assert str(label_for(AccountAction.LOGGED_IN)) == "دخل"


def test_an_unknown_verb_reads_as_its_code():
    """An event whose verb no app registers now shows the stored code."""
    event = AuditEvent(action="retired_verb", object_repr="#12")
    assert event.get_action_display() == "retired_verb"
    assert str(event) == "retired_verb: #12"


def test_a_registered_verb_reads_as_its_label():
    """An event's display and its string use the registered label."""
    event = AuditEvent(action=EditorialAction.KILLED, object_repr="#12")
    with translation.override("en"):
        assert event.get_action_display() == "Killed"
        assert str(event) == "Killed: #12"


@pytest.mark.django_db
def test_recording_an_unregistered_verb_is_refused():
    """A verb no app registered is not written: it would read as a bare code."""
    with pytest.raises(ValueError, match="not a registered audit action"):
        audit_record(by=None, action="typo_verb")
    assert not AuditEvent.objects.exists()


def test_registering_a_code_twice_is_refused(fresh_registry):
    """Two apps cannot claim one verb."""
    register(NEW_VERB, "Fact-checked")
    with pytest.raises(ImproperlyConfigured, match="registered twice"):
        register(NEW_VERB, "Checked")


def test_a_code_wider_than_the_column_is_refused(fresh_registry):
    """A code that would not fit the action column fails when it is registered."""
    with pytest.raises(ImproperlyConfigured):
        register("x" * (CODE_MAX_LENGTH + 1), "Too long")


def test_the_column_is_as_wide_as_the_registry_allows():
    """The registry's limit is the action column's width."""
    assert AuditEvent._meta.get_field("action").max_length == CODE_MAX_LENGTH


@pytest.mark.django_db
def test_a_new_verb_is_recorded_and_listed_with_its_label(client, fresh_registry):
    """A verb registered at run time is written and shown by its label in the admin
    list, without a migration."""
    verb = register(NEW_VERB, "Fact-checked")
    chief = SuperuserFactory()
    client.force_login(chief)
    audit_record(by=chief, action=verb, obj=chief)
    response = client.get(reverse("admin:audit_auditevent_changelist"))
    assert response.context["cl"].result_list[0].action == NEW_VERB
    assert '<td class="field-action_label">Fact-checked</td>' in (
        response.content.decode()
    )


@pytest.mark.django_db
def test_the_action_filter_offers_a_new_verb_and_filters_by_it(client, fresh_registry):
    """The admin's action filter lists the registered verbs by label and keeps only
    the events of the one chosen."""
    verb = register(NEW_VERB, "Fact-checked")
    AuditEvent.objects.create(action=verb, object_id="12")
    AuditEvent.objects.create(action=EditorialAction.KILLED, object_id="13")
    client.force_login(SuperuserFactory())
    url = reverse("admin:audit_auditevent_changelist")
    response = client.get(url, {"action": NEW_VERB})
    (spec,) = [
        s
        for s in response.context["cl"].filter_specs
        if isinstance(s, ActionListFilter)
    ]
    assert (NEW_VERB, "Fact-checked") in spec.lookup_choices
    assert f'href="?action={NEW_VERB}"' in response.content.decode()
    assert [e.object_id for e in response.context["cl"].result_list] == ["12"]
