"""The agency's GUID and version follow the item: nothing twice, updates, kills."""

import pytest

from articles.models import Status
from articles.services import StoryEdit, article_publish, article_save
from audit.models import AuditEvent
from ingest.problems import StoryImportError
from wire.channels import channel_poll
from wire.models import AgencyItem
from wire.services import wire_take, wire_update_apply

from .conftest import NOW, drop

pytestmark = pytest.mark.django_db


def deliver(channel, name):
    drop(channel, name)
    return channel_poll(channel, now=NOW)


def taken(channel, editor, name="oasis_package_ar_v1.xml"):
    deliver(channel, name)
    row = AgencyItem.objects.get()
    return row, wire_take(agency_item=row, by=editor, now=NOW).article


def test_the_same_version_delivered_twice_is_received_once(folder_channel):
    deliver(folder_channel, "oasis_package_ar_v1.xml")
    report = deliver(folder_channel, "oasis_package_ar_v1.xml")
    assert report.outcomes == {"seen": 1}
    assert AgencyItem.objects.count() == 1
    assert AuditEvent.objects.filter(action="wire_received").count() == 1


def test_an_older_version_after_a_newer_one_changes_nothing(folder_channel):
    deliver(folder_channel, "oasis_text_ar_v2.xml")
    report = deliver(folder_channel, "oasis_package_ar_v1.xml")
    assert report.outcomes == {"seen": 1}
    assert AgencyItem.objects.get().version == 2


def test_a_newer_version_updates_the_draft(folder_channel, wire_editor):
    row, article = taken(folder_channel, wire_editor)
    assert deliver(folder_channel, "oasis_text_ar_v2.xml").outcomes == {"updated": 1}
    article.refresh_from_db()
    assert article.headline_ar.endswith("(محدث)")
    assert "معرضاً للحرف اليدوية" in article.body_ar
    assert AuditEvent.objects.filter(action="wire_updated").exists()


def test_a_newer_version_keeps_what_the_editor_changed_elsewhere(
    folder_channel, wire_editor
):
    """The editor's own kicker survives the agency's new headline and body."""
    row, article = taken(folder_channel, wire_editor)
    article.kicker_ar = "ثقافة"
    article_save(
        edit=StoryEdit(article=article, base_version=article.version), by=wire_editor
    )
    deliver(folder_channel, "oasis_text_ar_v2.xml")
    article.refresh_from_db()
    assert article.kicker_ar == "ثقافة"
    assert article.headline_ar.endswith("(محدث)")


def test_a_published_story_is_offered_the_update_not_overwritten(
    folder_channel, wire_editor
):
    row, article = taken(folder_channel, wire_editor)
    article_publish(article=article, by=wire_editor)
    deliver(folder_channel, "oasis_text_ar_v2.xml")
    article.refresh_from_db()
    row.refresh_from_db()
    assert not article.headline_ar.endswith("(محدث)")
    assert row.pending["version"] == 2
    assert row.alert == "update_offered"


def test_the_editor_applies_an_offered_update(folder_channel, wire_editor):
    row, article = taken(folder_channel, wire_editor)
    article_publish(article=article, by=wire_editor)
    deliver(folder_channel, "oasis_text_ar_v2.xml")
    row.refresh_from_db()
    wire_update_apply(agency_item=row, by=wire_editor, now=NOW)
    article.refresh_from_db()
    row.refresh_from_db()
    assert article.headline_ar.endswith("(محدث)")
    assert article.status == Status.PUBLISHED
    assert row.pending is None and row.alert == ""
    assert AuditEvent.objects.filter(
        action="wire_update_applied", actor=wire_editor
    ).exists()


def test_a_kill_withdraws_the_draft_and_alerts(folder_channel, wire_editor):
    row, article = taken(folder_channel, wire_editor)
    assert deliver(folder_channel, "oasis_text_ar_kill.xml").outcomes == {"killed": 1}
    article.refresh_from_db()
    row.refresh_from_db()
    assert article.status == Status.KILLED
    assert row.alert == "killed"
    assert row.status == "canceled"


def test_a_kill_of_a_published_story_alerts_without_unpublishing(
    folder_channel, wire_editor
):
    """Taking a story off the site is the editor's decision; the alert asks for it."""
    row, article = taken(folder_channel, wire_editor)
    article_publish(article=article, by=wire_editor)
    deliver(folder_channel, "oasis_text_ar_kill.xml")
    article.refresh_from_db()
    row.refresh_from_db()
    assert article.status == Status.PUBLISHED
    assert row.alert == "killed"


def test_a_killed_item_cannot_be_taken(folder_channel, wire_editor):
    deliver(folder_channel, "oasis_package_ar_v1.xml")
    deliver(folder_channel, "oasis_text_ar_kill.xml")
    with pytest.raises(StoryImportError) as refused:
        wire_take(agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW)
    assert refused.value.problems[0].code == "withdrawn_by_agency"


def test_ninjs_versions_follow_the_same_rules(folder_channel, wire_editor):
    row, article = taken(folder_channel, wire_editor, "oasis_ninjs2_en_v1.json")
    deliver(folder_channel, "oasis_ninjs2_en_v2.json")
    article.refresh_from_db()
    assert (
        article.headline_en == "City library extends its opening hours until midnight"
    )
    deliver(folder_channel, "oasis_ninjs2_en_kill.json")
    article.refresh_from_db()
    assert article.status == Status.KILLED


def test_a_newer_version_of_an_item_not_taken_replaces_it_in_the_list(folder_channel):
    deliver(folder_channel, "oasis_package_ar_v1.xml")
    assert deliver(folder_channel, "oasis_text_ar_v2.xml").outcomes == {"updated": 1}
    row = AgencyItem.objects.get()
    assert row.version == 2
    assert row.headline.endswith("(محدث)")
    assert row.item.body_html.count("<p>") == 3


def test_pruning_removes_old_items_nobody_took_and_keeps_taken_ones(
    folder_channel, wire_editor
):
    from datetime import timedelta

    from wire.services import wire_prune

    row, article = taken(folder_channel, wire_editor)
    deliver(folder_channel, "oasis_flash_en.json")
    assert wire_prune(before=NOW + timedelta(days=1)) == 1
    assert list(AgencyItem.objects.all()) == [row]
    assert AuditEvent.objects.filter(action="wire_pruned").exists()


def test_an_agency_update_naming_a_protected_person_is_refused_and_recorded(
    folder_channel, wire_editor
):
    """The gate refuses the agency's new version: the draft keeps its text, the
    story is alerted, and the refusal is in the audit trail as a paste's is."""
    from tests.factories import ProtectedPersonFactory

    from .conftest import sample_bytes

    row, article = taken(folder_channel, wire_editor)
    ProtectedPersonFactory(name="سلمان الراشد", public_name="الشاهد")
    data = sample_bytes("oasis_text_ar_v2.xml").replace(
        "معرضاً للحرف اليدوية".encode(), "معرضاً قال عنه سلمان الراشد".encode()
    )
    drop(folder_channel, "oasis_text_ar_v2.xml", data)
    channel_poll(folder_channel, now=NOW)
    article.refresh_from_db()
    assert "سلمان الراشد" not in article.body_ar
    row.refresh_from_db()
    assert row.alert, row.alert_detail
    assert AuditEvent.objects.filter(action="identity_refused").exists()
