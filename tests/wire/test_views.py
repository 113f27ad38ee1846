"""The editors' incoming wire and the channels' admin, as plain role members."""

import pytest
from django.urls import reverse

from articles.models import Status
from articles.services import article_publish
from audit.models import AuditEvent
from wire.channels import channel_poll
from wire.models import AgencyItem, Channel

from .conftest import NOW, drop, sample_bytes

pytestmark = pytest.mark.django_db

INCOMING = "admin:wire_agencyitem_changelist"


def deliver(channel, *names):
    for name in names:
        drop(channel, name)
        channel_poll(channel, now=NOW)


@pytest.fixture
def desk(client, wire_editor):
    client.force_login(wire_editor)
    return client


def test_an_editor_sees_incoming_items_newest_first(desk, folder_channel):
    deliver(folder_channel, "oasis_package_ar_v1.xml")
    AgencyItem.objects.update(received_at=NOW.replace(hour=8))
    deliver(folder_channel, "oasis_flash_en.json")
    page = desk.get(reverse(INCOMING)).content.decode()
    assert page.index("Floodgates opened") < page.index("افتتاح سوق الواحة")


def test_the_list_is_right_to_left_in_arabic(desk, folder_channel):
    deliver(folder_channel, "oasis_package_ar_v1.xml")
    page = desk.get(reverse(INCOMING)).content.decode()
    assert 'dir="rtl"' in page
    assert '<span dir="auto" lang="ar">افتتاح سوق الواحة' in page


def test_a_flash_is_marked_as_proposing_breaking(desk, folder_channel):
    deliver(folder_channel, "oasis_flash_en.json")
    assert "wire-flash" in desk.get(reverse(INCOMING)).content.decode()


@pytest.mark.parametrize(
    ("query", "shown", "hidden"),
    [
        ({"language": "en"}, "Floodgates", "سوق الواحة"),
        ({"urgent": "1"}, "Floodgates", "سوق الواحة"),
        # Hamza and taa marbuta folded: "الواحه" finds "الواحة".
        ({"q": "سوق الواحه"}, "سوق الواحة", "Floodgates"),
    ],
)
def test_filters_and_search(desk, folder_channel, query, shown, hidden):
    deliver(folder_channel, "oasis_package_ar_v1.xml", "oasis_flash_en.json")
    page = desk.get(reverse(INCOMING), query).content.decode()
    assert shown in page
    assert hidden not in page


def test_filter_by_agency(desk, folder_channel, agency):
    deliver(folder_channel, "oasis_flash_en.json")
    other = desk.get(reverse(INCOMING), {"agency": agency.pk + 1}).content.decode()
    assert "Floodgates" not in other
    assert (
        "Floodgates"
        in desk.get(reverse(INCOMING), {"agency": agency.pk}).content.decode()
    )


def test_the_list_costs_the_same_queries_for_one_item_or_many(
    desk, folder_channel, django_assert_num_queries
):
    """Session, user and permissions (6 with the session's save), the page of
    items and the agencies for the filter: 9, whatever the page holds."""
    deliver(folder_channel, "oasis_flash_en.json")
    desk.get(reverse(INCOMING))
    with django_assert_num_queries(9) as one:
        desk.get(reverse(INCOMING))
    for number in range(30):
        AgencyItem.objects.create(
            source=folder_channel.source,
            channel=folder_channel,
            guid=f"urn:many:{number}",
            version=1,
            status="usable",
            headline=f"Item {number}",
            received_at=NOW,
            payload={},
        )
    with django_assert_num_queries(len(one.captured_queries)):
        desk.get(reverse(INCOMING))


def test_take_makes_a_draft_and_opens_it(desk, folder_channel):
    deliver(folder_channel, "oasis_package_ar_v1.xml")
    row = AgencyItem.objects.get()
    response = desk.post(reverse("admin:wire_agencyitem_take", args=[row.pk]))
    row.refresh_from_db()
    assert row.article.status == Status.DRAFT
    assert response.url == reverse(
        "admin:articles_article_change", args=[row.article.pk]
    )


def test_take_of_a_killed_item_says_why(desk, folder_channel):
    deliver(folder_channel, "oasis_package_ar_v1.xml", "oasis_text_ar_kill.xml")
    row = AgencyItem.objects.get()
    response = desk.post(
        reverse("admin:wire_agencyitem_take", args=[row.pk]), follow=True
    )
    assert "سحبت الوكالة هذا الخبر؛ لا يمكن أخذه." in response.content.decode()
    assert row.article is None


def test_the_story_form_shows_the_agencys_kill(desk, folder_channel, wire_editor):
    deliver(folder_channel, "oasis_package_ar_v1.xml")
    row = AgencyItem.objects.get()
    desk.post(reverse("admin:wire_agencyitem_take", args=[row.pk]))
    row.refresh_from_db()
    article_publish(article=row.article, by=wire_editor)
    deliver(folder_channel, "oasis_text_ar_kill.xml")
    page = desk.get(reverse("admin:articles_article_change", args=[row.article.pk]))
    assert "سحبت الوكالة هذا الخبر (النسخة 3" in page.content.decode()


def test_the_offered_update_shows_its_diff_and_applies(
    desk, folder_channel, wire_editor
):
    deliver(folder_channel, "oasis_package_ar_v1.xml")
    row = AgencyItem.objects.get()
    desk.post(reverse("admin:wire_agencyitem_take", args=[row.pk]))
    row.refresh_from_db()
    article_publish(article=row.article, by=wire_editor)
    deliver(folder_channel, "oasis_text_ar_v2.xml")
    url = reverse("admin:wire_agencyitem_update", args=[row.pk])
    page = desk.get(url).content.decode()
    assert 'class="added">وأضاف أن ساحة السوق' in page
    assert 'class="removed">ويعود بناء السوق' in page
    desk.post(url)
    row.article.refresh_from_db()
    assert "معرضاً للحرف" in row.article.body_ar


def test_a_reporter_cannot_open_the_incoming_wire(client, folder_channel):
    from core.roles import REPORTERS
    from tests.factories import member_of

    client.force_login(member_of(REPORTERS, username="reporter-1"))
    assert client.get(reverse(INCOMING)).status_code == 403


def test_a_source_manager_adds_a_channel_through_the_admin(
    client, source_manager, agency, wire_editor, tmp_path
):
    client.force_login(source_manager)
    response = client.post(
        reverse("admin:wire_channel_add"),
        {
            "name": "Oasis SFTP",
            "kind": "folder",
            "source": agency.pk,
            "role": "republished",
            "folder": str(tmp_path / "oasis"),
            "url": "",
            "every_minutes": 5,
            "active": "on",
            "acting_user": wire_editor.pk,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    channel = Channel.objects.get()
    assert AuditEvent.objects.filter(action="created", actor=source_manager).exists()
    assert channel.source == agency


def test_a_folder_channel_without_a_folder_is_refused(
    client, source_manager, agency, wire_editor
):
    client.force_login(source_manager)
    response = client.post(
        reverse("admin:wire_channel_add"),
        {
            "name": "Oasis SFTP",
            "kind": "folder",
            "source": agency.pk,
            "role": "republished",
            "every_minutes": 5,
            "acting_user": wire_editor.pk,
        },
    )
    assert response.status_code == 200
    assert not Channel.objects.exists()


def test_an_editor_keeps_the_media_topic_mapping(desk):
    from tests.factories import SectionFactory

    section = SectionFactory()
    response = desk.post(
        reverse("admin:wire_topicsection_add"),
        {"code": "15000000", "name": "sport", "section": section.pk},
    )
    assert response.status_code == 302
    assert AuditEvent.objects.filter(
        action="created", object_repr="15000000 sport"
    ).exists()


def test_a_reporter_cannot_take_an_item(client, folder_channel):
    """Taking wire copy is the desk's: a reporter's request makes no draft."""
    from core.roles import REPORTERS
    from tests.factories import member_of

    deliver(folder_channel, "oasis_package_ar_v1.xml")
    row = AgencyItem.objects.get()
    client.force_login(member_of(REPORTERS, username="reporter-2"))
    client.post(reverse("admin:wire_agencyitem_take", args=[row.pk]))
    row.refresh_from_db()
    assert row.article is None


def test_a_channel_acting_as_a_reporter_is_refused(
    client, source_manager, agency, tmp_path
):
    """The channel's account must be able to update and withdraw drafts."""
    from core.roles import REPORTERS
    from tests.factories import member_of

    client.force_login(source_manager)
    response = client.post(
        reverse("admin:wire_channel_add"),
        {
            "name": "Oasis SFTP",
            "kind": "folder",
            "source": agency.pk,
            "role": "republished",
            "folder": str(tmp_path),
            "every_minutes": 5,
            "acting_user": member_of(REPORTERS, username="reporter-3").pk,
        },
    )
    assert response.status_code == 200
    assert not Channel.objects.exists()


@pytest.mark.parametrize(
    "address",
    [
        "/admin/wire/agencyitem/?agency=99999999999999999999999",
        "/admin/wire/agencyitem/?page=99999999999999999999&q=%00",
        "/admin/wire/agencyitem/99999999999999999999999/update/",
    ],
)
def test_odd_addresses_never_answer_a_server_error(desk, address):
    assert desk.get(address).status_code in (200, 302, 404)


def test_an_agency_headline_naming_a_protected_person_shows_the_pseudonym(
    desk, folder_channel
):
    """Agency copy arrives unchecked; the list an editor reads never prints the
    legal name (the admin's redaction covers the wire's pages too)."""
    from tests.factories import ProtectedPersonFactory

    ProtectedPersonFactory(name="سلمان الراشد", public_name="الشاهد")
    data = sample_bytes("oasis_package_ar_v1.xml").replace(
        "افتتاح سوق الواحة القديم بعد ترميمه</headline>".encode(),
        "سلمان الراشد يفتتح سوق الواحة</headline>".encode(),
    )
    drop(folder_channel, "oasis_package_ar_v1.xml", data)
    channel_poll(folder_channel, now=NOW)
    page = desk.get(reverse(INCOMING)).content.decode()
    assert "سلمان الراشد" not in page
    assert "الشاهد يفتتح سوق الواحة" in page


def test_a_source_manager_polls_a_channel_at_once(
    client, source_manager, folder_channel
):
    drop(folder_channel, "oasis_flash_en.json")
    client.force_login(source_manager)
    client.post(
        reverse("admin:wire_channel_changelist"),
        {"action": "poll_now", "_selected_action": [folder_channel.pk]},
    )
    assert AgencyItem.objects.count() == 1
