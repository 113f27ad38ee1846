"""The wire cannot be turned against us: a feed or a picture inside our own
network is refused when the channel is saved and again at every fetch, through a
changed DNS answer too, and the channel's log names no internal detail."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.outbound_servers import INTERNAL_HOSTS, ScriptedDNS
from wire.channels import channel_poll
from wire.models import AgencyItem, Channel, ChannelLog
from wire.services import channel_save, wire_take

from .conftest import NOW, drop, sample_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def guarded(settings):
    """The production rule, DNS answered by the test."""
    settings.OUTBOUND_ALLOW_PRIVATE_ADDRESSES = False
    settings.OUTBOUND_RESOLVER = "tests.outbound_servers.resolve"
    ScriptedDNS.reset(
        {"localhost": [["127.0.0.1"]], "feed.agency.example": [["93.184.216.34"]]}
    )
    return ScriptedDNS


def feed_at(channel: Channel, url: str) -> Channel:
    channel.url = url
    return channel


@pytest.mark.parametrize("host", INTERNAL_HOSTS)
def test_a_feed_inside_our_network_is_refused_when_saved(
    guarded, feed_channel, source_manager, host
):
    feed_at(feed_channel, f"http://{host}/feed")
    with pytest.raises(ValidationError) as refusal:
        channel_save(channel=feed_channel, by=source_manager)
    assert "not on the public internet" in str(refusal.value.message_dict["url"])


def test_a_feed_on_a_public_host_is_saved(guarded, feed_channel, source_manager):
    feed_at(feed_channel, "https://feed.agency.example/feed")
    channel_save(channel=feed_channel, by=source_manager)
    assert Channel.objects.get().url == "https://feed.agency.example/feed"


@pytest.mark.parametrize("host", ["metadata.google.internal", "10.0.0.8", "localhost"])
def test_a_picture_host_inside_our_network_is_refused_when_saved(
    guarded, feed_channel, source_manager, host
):
    feed_at(feed_channel, "https://feed.agency.example/feed")
    feed_channel.picture_hosts = f"media.agency.example\n{host}"
    guarded.answers["media.agency.example"] = [["93.184.216.35"]]
    with pytest.raises(ValidationError) as refusal:
        channel_save(channel=feed_channel, by=source_manager)
    message = str(refusal.value.message_dict["picture_hosts"])
    assert host in message and "media.agency.example" not in message


@pytest.mark.parametrize("host", INTERNAL_HOSTS)
def test_a_feed_inside_our_network_is_never_fetched(
    guarded, feed_channel, agency_server, host
):
    """Saved before the rule (or behind the admin's back): refused at the poll."""
    agency_server.serve("/feed", sample_bytes("oasis_flash_en.json"))
    port = agency_server.httpd.server_address[1]
    Channel.objects.filter(pk=feed_channel.pk).update(url=f"http://{host}:{port}/feed")
    feed_channel.refresh_from_db()
    channel_poll(feed_channel, now=NOW)
    assert agency_server.requests == []
    entry = ChannelLog.objects.get()
    assert entry.level == "error"
    assert "not on the public internet" in entry.message


def test_a_feed_whose_dns_answer_changes_is_never_fetched_from_loopback(
    guarded, feed_channel, agency_server
):
    """Public when checked, loopback a moment later: the host is looked up once,
    and the loopback server is never called."""
    agency_server.serve("/feed", sample_bytes("oasis_flash_en.json"))
    port = agency_server.httpd.server_address[1]
    guarded.reset({"feed.agency.example": [["2001:4860:4860::8888"], ["127.0.0.1"]]})
    Channel.objects.filter(pk=feed_channel.pk).update(
        url=f"http://feed.agency.example:{port}/feed"
    )
    feed_channel.refresh_from_db()
    channel_poll(feed_channel, now=NOW)
    assert guarded.lookups == ["feed.agency.example"]
    assert agency_server.requests == []


def test_an_unreachable_feed_is_logged_in_general_terms(
    feed_channel, agency_server, caplog
):
    """A source manager reads that the feed could not be reached, not the
    connection's error (which would map our network's hosts and ports)."""
    agency_server.httpd.server_close()  # nothing listens on the feed's port now
    channel_poll(feed_channel, now=NOW)
    entry = ChannelLog.objects.get()
    assert "The address could not be reached." in entry.message
    assert "Errno" not in entry.message and "refused" not in entry.message
    # The detail is in the server's log.
    (detail,) = [r.getMessage() for r in caplog.records if r.name == "core.outbound"]
    assert "Connection" in detail


@pytest.mark.parametrize("host", ["127.0.0.1", "169.254.169.254", "[::1]"])
def test_a_picture_inside_our_network_is_never_fetched(
    guarded,
    folder_channel,
    agency_server,
    wire_editor,
    django_capture_on_commit_callbacks,
    host,
):
    port = agency_server.httpd.server_address[1]
    Channel.objects.filter(pk=folder_channel.pk).update(picture_hosts=host.strip("[]"))
    folder_channel.refresh_from_db()
    drop(
        folder_channel,
        "oasis_flash_en.json",
        sample_bytes("oasis_flash_en.json", f"http://{host}:{port}/"),
    )
    channel_poll(folder_channel, now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        wire_take(agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW)
    assert agency_server.requests == []
    entry = ChannelLog.objects.get(level="error")
    assert entry.file_name.endswith("dam.jpg")
    assert "not on the public internet" in entry.message


def test_a_picture_whose_dns_answer_changes_is_never_fetched_from_loopback(
    guarded,
    folder_channel,
    agency_server,
    wire_editor,
    django_capture_on_commit_callbacks,
):
    port = agency_server.httpd.server_address[1]
    guarded.reset({"media.agency.example": [["2001:4860:4860::8888"], ["127.0.0.1"]]})
    Channel.objects.filter(pk=folder_channel.pk).update(
        picture_hosts="media.agency.example"
    )
    folder_channel.refresh_from_db()
    flash = json.loads(
        sample_bytes("oasis_flash_en.json", f"http://media.agency.example:{port}/")
    )
    drop(folder_channel, "flash.json", json.dumps(flash).encode())
    channel_poll(folder_channel, now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        wire_take(agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW)
    assert guarded.lookups == ["media.agency.example"]
    assert agency_server.requests == []


def test_the_admin_shows_why_a_feed_inside_our_network_is_refused(
    guarded, client, source_manager, agency, wire_editor
):
    client.force_login(source_manager)
    response = client.post(
        reverse("admin:wire_channel_add"),
        {
            "name": "Metadata",
            "kind": "feed",
            "source": agency.pk,
            "role": "republished",
            "url": "http://169.254.169.254/latest/meta-data/",
            "every_minutes": 5,
            "active": "on",
            "acting_user": wire_editor.pk,
        },
    )
    assert response.status_code == 200
    # The admin speaks Arabic: "is not on the public internet".
    assert "ليس على الإنترنت العام" in response.content.decode()
    assert not Channel.objects.exists()
