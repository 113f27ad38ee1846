"""Channels: a drop folder and an HTTP feed, polled, logged, nothing lost."""

import json
import os
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from articles.models import Status
from wire.channels import channel_poll, channels_due
from wire.models import AgencyItem, ChannelLog
from wire.services import wire_take

from .conftest import NOW, drop, sample_bytes

pytestmark = pytest.mark.django_db


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_read_file_is_moved_to_the_archive(folder_channel):
    drop(folder_channel, "oasis_package_ar_v1.xml")
    channel_poll(folder_channel, now=NOW)
    base = Path(folder_channel.folder)
    assert files(base / "processing") == []
    (archived,) = files(base / "archive")
    assert archived.endswith("-oasis_package_ar_v1.xml")
    assert not (base / "oasis_package_ar_v1.xml").exists()


def test_a_file_that_is_neither_format_is_kept_aside_with_its_error(folder_channel):
    drop(folder_channel, "note.txt")
    report = channel_poll(folder_channel, now=NOW)
    rejected = Path(folder_channel.folder) / "rejected"
    kept, error = files(rejected)
    assert kept.endswith("-note.txt") and error == kept + ".error.txt"
    assert (rejected / kept).read_bytes() == sample_bytes("note.txt")
    assert "neither NewsML-G2" in (rejected / error).read_text()
    assert report.rejected == 1


def test_a_rejected_file_is_in_the_channels_log(folder_channel):
    drop(folder_channel, "not_wire.xml")
    channel_poll(folder_channel, now=NOW)
    entry = ChannelLog.objects.get(channel=folder_channel)
    assert entry.level == "error"
    assert entry.file_name == "not_wire.xml"
    assert "not NewsML-G2" in entry.message


def test_a_bad_file_does_not_stop_the_good_ones(folder_channel):
    drop(folder_channel, "note.txt")
    drop(folder_channel, "oasis_flash_en.json")
    channel_poll(folder_channel, now=NOW)
    assert AgencyItem.objects.count() == 1


def test_files_still_uploading_are_left_for_the_next_poll(folder_channel):
    drop(folder_channel, "story.xml.part", sample_bytes("oasis_flash_en.json"))
    channel_poll(folder_channel, now=NOW)
    assert (Path(folder_channel.folder) / "story.xml.part").exists()
    assert AgencyItem.objects.count() == 0


def test_a_file_left_in_processing_is_read_on_the_next_poll(folder_channel):
    """A poll that stopped half-way (a worker killed) loses nothing."""
    processing = Path(folder_channel.folder) / "processing"
    processing.mkdir()
    left = processing / "0123--left.json"
    left.write_bytes(sample_bytes("oasis_flash_en.json"))
    os.utime(left, (time.time() - 3600, time.time() - 3600))
    channel_poll(folder_channel, now=NOW)
    assert AgencyItem.objects.count() == 1
    assert ChannelLog.objects.get().file_name == "left.json"


def test_a_file_another_poll_is_reading_is_left_to_it(folder_channel):
    processing = Path(folder_channel.folder) / "processing"
    processing.mkdir()
    (processing / "0123--busy.json").write_bytes(sample_bytes("oasis_flash_en.json"))
    channel_poll(folder_channel, now=NOW)
    assert AgencyItem.objects.count() == 0
    assert (processing / "0123--busy.json").exists()


def test_a_file_named_like_one_in_processing_overwrites_nothing(folder_channel):
    """The agency may reuse a file name; every delivery is kept."""
    drop(folder_channel, "oasis_ninjs2_en_v1.json")
    channel_poll(folder_channel, now=NOW)
    drop(
        folder_channel,
        "oasis_ninjs2_en_v1.json",
        sample_bytes("oasis_ninjs2_en_v2.json"),
    )
    channel_poll(folder_channel, now=NOW)
    assert len(files(Path(folder_channel.folder) / "archive")) == 2
    assert AgencyItem.objects.get().version == 2


def test_a_missing_drop_folder_is_logged(folder_channel, wire_root):
    folder_channel.folder = str(wire_root / "nonexistent")
    channel_poll(folder_channel, now=NOW)
    assert "does not exist" in ChannelLog.objects.get().message


def test_the_feed_channel_receives_the_feeds_items(feed_channel, agency_server):
    agency_server.serve("/feed", sample_bytes("oasis_flash_en.json"))
    report = channel_poll(feed_channel, now=NOW)
    assert report.outcomes == {"new": 1}
    assert AgencyItem.objects.get().channel == feed_channel


def test_the_feed_read_again_imports_nothing_twice(feed_channel, agency_server):
    agency_server.serve("/feed", sample_bytes("oasis_ninjs2_en_v1.json"))
    channel_poll(feed_channel, now=NOW)
    assert channel_poll(feed_channel, now=NOW).outcomes == {"seen": 1}
    assert ChannelLog.objects.count() == 1  # the first read only


def test_the_feeds_next_version_updates_the_draft(
    feed_channel, agency_server, wire_editor
):
    agency_server.serve("/feed", sample_bytes("oasis_ninjs2_en_v1.json"))
    channel_poll(feed_channel, now=NOW)
    article = wire_take(
        agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW
    ).article
    agency_server.serve("/feed", sample_bytes("oasis_ninjs2_en_v2.json"))
    channel_poll(feed_channel, now=NOW)
    article.refresh_from_db()
    assert article.headline_en.endswith("until midnight")


def test_the_feeds_kill_withdraws_the_draft(feed_channel, agency_server, wire_editor):
    agency_server.serve("/feed", sample_bytes("oasis_ninjs2_en_v1.json"))
    channel_poll(feed_channel, now=NOW)
    article = wire_take(
        agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW
    ).article
    agency_server.serve("/feed", sample_bytes("oasis_ninjs2_en_kill.json"))
    channel_poll(feed_channel, now=NOW)
    article.refresh_from_db()
    assert article.status == Status.KILLED


def test_an_unreadable_feed_document_is_kept_aside(
    feed_channel, agency_server, settings, tmp_path
):
    settings.WIRE_REJECTED_DIR = tmp_path / "rejected"
    agency_server.serve("/feed", b"<html>maintenance</html>")
    channel_poll(feed_channel, now=NOW)
    (kept,) = (tmp_path / "rejected" / str(feed_channel.pk)).iterdir()
    assert kept.read_bytes() == b"<html>maintenance</html>"
    assert "not NewsML-G2" in ChannelLog.objects.get().message


def test_an_unreachable_feed_is_logged(feed_channel):
    channel_poll(feed_channel, now=NOW)
    entry = ChannelLog.objects.get()
    assert entry.level == "error"
    assert "could not be read" in entry.message


def test_taking_an_item_brings_its_picture_into_the_library_as_hero(
    feed_channel, agency_server, wire_editor, django_capture_on_commit_callbacks
):
    agency_server.serve(
        "/feed", sample_bytes("oasis_flash_en.json", agency_server.base)
    )
    channel_poll(feed_channel, now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        article = wire_take(
            agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW
        ).article
    article.refresh_from_db()
    image = article.hero_image
    assert (
        image.caption_en == "Water rushes through the open gates of the Wadi Reservoir."
    )
    assert image.credit == "Oasis News Agency / Lina Farah"
    assert image.source == str(feed_channel.source)
    assert "/pictures/dam.jpg" in agency_server.requests


def test_a_picture_that_is_not_an_image_is_refused_and_logged(
    feed_channel, agency_server, wire_editor, django_capture_on_commit_callbacks
):
    agency_server.files["/pictures/dam.jpg"] = b"<script>alert(1)</script>"
    agency_server.serve(
        "/feed", sample_bytes("oasis_flash_en.json", agency_server.base)
    )
    channel_poll(feed_channel, now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        article = wire_take(
            agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW
        ).article
    article.refresh_from_db()
    assert article.hero_image is None
    assert ChannelLog.objects.filter(
        level="error", file_name__endswith="dam.jpg"
    ).exists()


def test_poll_wire_polls_due_channels(folder_channel):
    drop(folder_channel, "oasis_flash_en.json")
    out = StringIO()
    call_command("poll_wire", stdout=out)
    assert "poll enqueued" in out.getvalue()
    assert AgencyItem.objects.count() == 1
    assert channels_due() == []


def test_a_picture_on_a_host_the_channel_does_not_trust_is_not_fetched(
    folder_channel, agency_server, wire_editor, django_capture_on_commit_callbacks
):
    """An item names the pictures to fetch: only the channel's hosts are read."""
    drop(
        folder_channel,
        "oasis_flash_en.json",
        sample_bytes("oasis_flash_en.json", agency_server.base),
    )
    channel_poll(folder_channel, now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        wire_take(agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW)
    assert agency_server.requests == []
    entry = ChannelLog.objects.get(level="error")
    assert "not on a host this channel fetches pictures from" in entry.message


def test_a_picture_host_listed_on_the_channel_is_fetched(
    folder_channel, agency_server, wire_editor, django_capture_on_commit_callbacks
):
    folder_channel.picture_hosts = "127.0.0.1"
    folder_channel.save()
    drop(
        folder_channel,
        "oasis_flash_en.json",
        sample_bytes("oasis_flash_en.json", agency_server.base),
    )
    channel_poll(folder_channel, now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        article = wire_take(
            agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW
        ).article
    article.refresh_from_db()
    assert article.hero_image is not None


def test_a_redirect_is_not_followed(feed_channel, agency_server):
    """A feed answering with a redirect could lead into the newsroom's network."""
    agency_server.files.pop("/feed", None)
    original = agency_server.httpd.RequestHandlerClass.do_GET

    def redirect(handler):
        handler.send_response(302)
        handler.send_header("Location", "http://169.254.169.254/latest/")
        handler.end_headers()

    agency_server.httpd.RequestHandlerClass.do_GET = redirect
    try:
        channel_poll(feed_channel, now=NOW)
    finally:
        agency_server.httpd.RequestHandlerClass.do_GET = original
    assert "redirects elsewhere" in ChannelLog.objects.get().message


def test_a_file_is_received_whole_or_not_at_all(folder_channel, monkeypatch):
    """A database error on a file's second item undoes its first: the file is
    kept aside to be delivered again, never half in."""
    from django.db import DatabaseError

    from wire import channels

    calls = []
    receive = channels.wire_receive

    def failing_second(**kwargs):
        calls.append(kwargs["item"].guid)
        if len(calls) == 2:
            raise DatabaseError("the database went away")
        return receive(**kwargs)

    monkeypatch.setattr(channels, "wire_receive", failing_second)
    two = b"[" + sample_bytes("oasis_flash_en.json") + b","
    two += sample_bytes("oasis_ninjs2_en_v1.json") + b"]"
    drop(folder_channel, "two.json", two)
    channel_poll(folder_channel, now=NOW)
    assert AgencyItem.objects.count() == 0
    assert "the database went away" in ChannelLog.objects.get().message


def test_a_picture_added_by_a_newer_version_joins_the_library(
    feed_channel, agency_server, wire_editor, django_capture_on_commit_callbacks
):
    agency_server.serve("/feed", sample_bytes("oasis_ninjs2_en_v1.json"))
    channel_poll(feed_channel, now=NOW)
    article = wire_take(
        agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW
    ).article
    second = json.loads(sample_bytes("oasis_ninjs2_en_v2.json"))
    flash = json.loads(sample_bytes("oasis_flash_en.json", agency_server.base))
    picture = flash["associations"][0]
    # ninjs 2.x spells its properties in lower case.
    picture["copyrightnotice"] = picture.pop("copyrightNotice")
    second["associations"] = [picture]
    agency_server.serve("/feed", json.dumps(second).encode())
    with django_capture_on_commit_callbacks(execute=True):
        channel_poll(feed_channel, now=NOW)
    article.refresh_from_db()
    assert article.hero_image.credit == "Oasis News Agency / Lina Farah"


def test_an_unchanged_feed_is_not_downloaded_again(feed_channel, agency_server):
    """The feed's ETag is sent back: the agency answers 304 and nothing is read."""
    agency_server.serve("/feed", sample_bytes("oasis_ninjs2_en_v1.json"))
    channel_poll(feed_channel, now=NOW)
    feed_channel.refresh_from_db()
    assert feed_channel.feed_etag
    assert channel_poll(feed_channel, now=NOW).files == 0
    agency_server.serve("/feed", sample_bytes("oasis_ninjs2_en_v2.json"))
    feed_channel.refresh_from_db()
    assert channel_poll(feed_channel, now=NOW).outcomes == {"updated": 1}


def test_a_feed_asking_for_credentials_gets_them_from_the_environment(
    feed_channel, agency_server, monkeypatch
):
    agency_server.serve("/feed", sample_bytes("oasis_flash_en.json"))
    agency_server.authorization["/feed"] = "Bearer oasis-token"
    monkeypatch.setenv("WIRE_OASIS_AUTH", "Bearer oasis-token")
    feed_channel.auth_env = "WIRE_OASIS_AUTH"
    assert channel_poll(feed_channel, now=NOW).outcomes == {"new": 1}


def test_without_its_credentials_the_feed_is_refused_and_logged(
    feed_channel, agency_server
):
    agency_server.serve("/feed", sample_bytes("oasis_flash_en.json"))
    agency_server.authorization["/feed"] = "Bearer oasis-token"
    channel_poll(feed_channel, now=NOW)
    assert "401" in ChannelLog.objects.get(level="error").message


def test_a_channel_may_not_send_the_servers_own_secrets(feed_channel):
    """Only WIRE_ variables: SECRET_KEY must never go to a typed address."""
    from django.core.exceptions import ValidationError

    feed_channel.auth_env = "SECRET_KEY"
    with pytest.raises(ValidationError):
        feed_channel.full_clean()
    assert feed_channel.authorization() == ""


def test_a_story_published_before_its_pictures_came_keeps_its_page(
    feed_channel, agency_server, wire_editor, django_capture_on_commit_callbacks
):
    """The pictures join the library; the live page gets no hero unasked."""
    from articles.services import article_publish
    from images.models import Image

    agency_server.serve(
        "/feed", sample_bytes("oasis_flash_en.json", agency_server.base)
    )
    channel_poll(feed_channel, now=NOW)
    with django_capture_on_commit_callbacks(execute=False) as pending:
        article = wire_take(
            agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW
        ).article
    article_publish(article=article, by=wire_editor)
    for callback in pending:
        callback()
    article.refresh_from_db()
    assert article.hero_image is None
    assert Image.objects.count() == 1
