"""Agency items become drafts through the importer, with the agency's metadata."""

import pytest

from articles.models import Status
from audit.models import AuditEvent
from ingest.problems import StoryImportError
from sources.models import Attribution
from tests.factories import ProtectedPersonFactory, SectionFactory
from wire.channels import channel_poll
from wire.models import AgencyItem, TopicSection
from wire.services import wire_take

from .conftest import NOW, drop, sample_bytes

pytestmark = pytest.mark.django_db


def received(channel, name, data=None):
    drop(channel, name, data)
    channel_poll(channel, now=NOW)
    return AgencyItem.objects.get()


def test_a_received_item_waits_in_the_list_without_a_draft(folder_channel):
    """Nothing is drafted, let alone published, until an editor takes it."""
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    assert row.article is None
    assert row.headline == "افتتاح سوق الواحة القديم بعد ترميمه"


def test_taking_an_item_makes_a_draft_never_published(folder_channel, wire_editor):
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert article.status == Status.DRAFT
    assert article.headline_ar == "افتتاح سوق الواحة القديم بعد ترميمه"
    assert article.body_ar.count("<p") == 3
    assert article.language == "ar"


def test_the_draft_credits_the_channels_agency_with_its_role(
    folder_channel, wire_editor, agency
):
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    credit = article.attributions.get()
    assert credit.source == agency
    assert credit.role == Attribution.Role.REPUBLISHED


def test_the_agency_embargo_becomes_the_storys_embargo(folder_channel, wire_editor):
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert article.embargo_until == row.item.embargo


def test_summary_and_byline_come_from_the_agency(folder_channel, wire_editor):
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert article.summary_ar.startswith("عاد السوق القديم")
    assert [b.name for b in article.bylines.all()] == ["فريق الواحة الثقافي"]


def test_a_mapped_media_topic_chooses_the_section(folder_channel, wire_editor):
    culture = SectionFactory(name_en="Culture")
    TopicSection.objects.create(code="01000000", name="arts", section=culture)
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    assert (
        wire_take(agency_item=row, by=wire_editor, now=NOW).article.section == culture
    )


def test_without_a_mapping_the_channels_section_is_used(folder_channel, wire_editor):
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert article.section == folder_channel.section


def test_a_flash_proposes_breaking_but_the_draft_is_not_marked(
    folder_channel, wire_editor
):
    row = received(folder_channel, "oasis_flash_en.json")
    assert row.proposes_breaking
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert not article.is_breaking
    assert article.language == "en"


def test_an_ordinary_urgency_does_not_propose_breaking(folder_channel):
    assert not received(folder_channel, "oasis_package_ar_v1.xml").proposes_breaking


def test_a_post_embedded_in_the_body_becomes_a_social_post(folder_channel, wire_editor):
    data = sample_bytes("oasis_flash_en.json").replace(
        b"<p>The water authority",
        b'<blockquote class=\\"twitter-tweet\\"><p>Gates open at 6am</p>&mdash; '
        b'Water Authority (@oasiswater) <a href=\\"https://twitter.com/oasiswater/'
        b'status/1864000000000000000\\">December 1, 2026</a></blockquote>'
        b"<p>The water authority",
    )
    row = received(folder_channel, "oasis_flash_en.json", data)
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    post = article.social_posts.get()
    assert post.handle == "oasiswater"


def test_taking_is_recorded_in_the_audit_trail(folder_channel, wire_editor):
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    wire_take(agency_item=row, by=wire_editor, now=NOW)
    assert AuditEvent.objects.filter(action="wire_taken", actor=wire_editor).exists()
    assert AuditEvent.objects.filter(action="imported", actor=wire_editor).exists()


def test_an_item_is_taken_once(folder_channel, wire_editor):
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    wire_take(agency_item=row, by=wire_editor, now=NOW)
    with pytest.raises(StoryImportError) as refused:
        wire_take(agency_item=row, by=wire_editor, now=NOW)
    assert refused.value.problems[0].code == "already_taken"


def test_copy_naming_a_protected_person_is_refused_and_nothing_made(
    folder_channel, wire_editor
):
    """The identity gate of the importer: the item stays, no draft is made."""
    ProtectedPersonFactory(name="سلمان الراشد", public_name="الشاهد")
    data = sample_bytes("oasis_package_ar_v1.xml").replace(
        "وقال مدير البلدية".encode(), "وقال سلمان الراشد".encode()
    )
    row = received(folder_channel, "oasis_package_ar_v1.xml", data)
    with pytest.raises(StoryImportError) as refused:
        wire_take(agency_item=row, by=wire_editor, now=NOW)
    assert refused.value.problems[0].code == "protected_name"
    row.refresh_from_db()
    assert row.article is None
    assert AuditEvent.objects.filter(action="identity_refused").exists()


def test_the_copys_hashtags_become_tags(folder_channel, wire_editor):
    data = sample_bytes("oasis_flash_en.json").replace(
        b"until Thursday.", b"until Thursday. #WadiReservoir"
    )
    row = received(folder_channel, "oasis_flash_en.json", data)
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert list(article.tags.names()) == ["WadiReservoir"]


def test_new_people_stay_proposals_for_the_editor(folder_channel, wire_editor):
    data = sample_bytes("oasis_flash_en.json").replace(
        b"The water authority asked",
        b"President Nadia Qasim said the dam held. The water authority asked",
    )
    row = received(folder_channel, "oasis_flash_en.json", data)
    result = wire_take(agency_item=row, by=wire_editor, now=NOW)
    assert "Nadia Qasim" in [p.name for p in result.proposed_people]
    assert not result.article.people.exists()


def test_the_agencys_language_decides_the_storys(folder_channel, wire_editor):
    """An English item full of Arabic names is still filed as English."""
    data = sample_bytes("oasis_flash_en.json").replace(
        b"Floodgates opened at Wadi Reservoir after heavy rain",
        "بوابات سد الوادي".encode(),
    )
    row = received(folder_channel, "oasis_flash_en.json", data)
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert article.language == "en"
    assert article.headline_en == "بوابات سد الوادي"


def test_receiving_an_item_leaves_the_page_cache_alone(
    folder_channel, django_capture_on_commit_callbacks, heard
):
    """Nothing public changed: the wire's records announce no change."""
    drop(folder_channel, "oasis_flash_en.json")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        channel_poll(folder_channel, now=NOW)
    assert AgencyItem.objects.exists()
    assert heard == []
    assert callbacks == []


def test_the_agencys_dateline_opens_the_first_paragraph(folder_channel, wire_editor):
    row = received(folder_channel, "oasis_package_ar_v1.xml")
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert "مدينة الواحة، 1 ديسمبر – افتتحت بلدية" in article.body_ar


def test_markup_in_the_agencys_body_never_reaches_the_draft(
    folder_channel, wire_editor
):
    data = sample_bytes("oasis_flash_en.json").replace(
        b"<p>The water authority",
        b'<script>alert(1)</script><p onclick=\\"steal()\\">Gates <img src=x '
        b"onerror=alert(2)>open.</p><p>The water authority",
    )
    row = received(folder_channel, "oasis_flash_en.json", data)
    article = wire_take(agency_item=row, by=wire_editor, now=NOW).article
    assert "Gates open." in article.body_en
    for unsafe in ("<script", "alert(", "onclick", "onerror", "<img"):
        assert unsafe not in article.body_en
