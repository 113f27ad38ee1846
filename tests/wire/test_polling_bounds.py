"""A poll is bounded: a trickling feed is cut at its deadline, a channel being
polled is not queued again, a document over its bounds is refused unparsed, and
a picture too large to decode is refused alone."""

import json
import struct
import time
import zlib
from io import StringIO

import pytest
import redis
from django.core.management import call_command

from tests.outbound_servers import Trickler
from wire.channels import channel_poll, poll_claim, poll_release
from wire.models import AgencyItem, Channel, ChannelLog
from wire.services import wire_take

from .conftest import NOW, drop, sample_bytes

pytestmark = pytest.mark.django_db

REDIS_URL = "redis://127.0.0.1:6379/12"


# ------------------------------------------------------------------ time


def test_a_trickling_feed_is_cut_at_its_time_bound(feed_channel, settings):
    """One byte every half second would hold the worker for minutes: the whole
    download has one deadline."""
    settings.WIRE_FETCH_SECONDS = 2
    trickler = Trickler(every=0.5, count=600)
    Channel.objects.filter(pk=feed_channel.pk).update(url=trickler.base + "feed")
    feed_channel.refresh_from_db()
    started = time.monotonic()
    try:
        channel_poll(feed_channel, now=NOW)
    finally:
        trickler.stop()
    assert time.monotonic() - started < 3.5
    assert "did not answer in time" in ChannelLog.objects.get().message


# ------------------------------------------------------------------ lock


@pytest.fixture
def shared_cache(settings):
    """The cache every process shares in production: Redis (this run's database)."""
    client = redis.Redis.from_url(REDIS_URL)
    client.flushdb()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
    yield client
    client.flushdb()


def test_a_channel_being_polled_is_not_queued_again(folder_channel, shared_cache):
    assert poll_claim(folder_channel.pk)  # a poll under way, in another worker
    drop(folder_channel, "oasis_flash_en.json")
    out = StringIO()
    call_command("poll_wire", stdout=out)
    assert "being polled already" in out.getvalue()
    assert not AgencyItem.objects.exists()


def test_a_channel_is_queued_again_once_its_poll_is_over(folder_channel, shared_cache):
    drop(folder_channel, "oasis_flash_en.json")
    call_command("poll_wire", stdout=StringIO())
    assert AgencyItem.objects.count() == 1
    # The poll released its claim: the next due poll is queued.
    assert poll_claim(folder_channel.pk)
    poll_release(folder_channel.pk)


def test_the_claim_is_one_for_all_processes(folder_channel, shared_cache):
    assert poll_claim(folder_channel.pk)
    assert not poll_claim(folder_channel.pk)
    assert shared_cache.keys("*wire:poll:*")  # held in Redis, not in this process


def test_a_claim_left_by_a_dead_worker_lapses(folder_channel, shared_cache, settings):
    settings.WIRE_POLL_LOCK_SECONDS = 1
    assert poll_claim(folder_channel.pk)
    time.sleep(1.2)
    assert poll_claim(folder_channel.pk)


# ------------------------------------------------------------------ size


def ninjs_with_body(paragraphs: int) -> bytes:
    item = json.loads(sample_bytes("oasis_flash_en.json"))
    item["bodies"][0]["value"] = "<p>word</p>" * paragraphs
    return json.dumps(item).encode()


def test_a_document_over_the_element_bound_is_refused_unparsed(
    folder_channel, settings
):
    settings.WIRE_ITEM_MAX_ELEMENTS = 50_000
    values = [{"uri": f"urn:x:{n}", "n": n} for n in range(20_000)]
    drop(folder_channel, "many.json", json.dumps(values).encode())
    channel_poll(folder_channel, now=NOW)
    entry = ChannelLog.objects.get()
    assert entry.level == "error"
    assert "more than 50,000 elements" in entry.message
    assert not AgencyItem.objects.exists()


def test_an_xml_document_over_the_element_bound_is_refused(folder_channel, settings):
    settings.WIRE_ITEM_MAX_ELEMENTS = 1000
    inner = b"<p>x</p>" * 5000
    data = (
        b'<newsItem xmlns="http://iptc.org/std/nar/2006-10-01/">'
        + inner
        + b"</newsItem>"
    )
    drop(folder_channel, "many.xml", data)
    channel_poll(folder_channel, now=NOW)
    assert "more than 1,000 elements" in ChannelLog.objects.get().message


def test_a_story_body_over_the_element_bound_is_refused(folder_channel, settings):
    """ninjs carries the body's HTML as one string: its elements count too."""
    settings.WIRE_ITEM_MAX_ELEMENTS = 1000
    drop(folder_channel, "long.json", ninjs_with_body(2000))
    channel_poll(folder_channel, now=NOW)
    assert "more than 1,000 elements" in ChannelLog.objects.get().message
    assert not AgencyItem.objects.exists()


def test_a_document_over_the_byte_bound_is_refused(folder_channel, settings):
    settings.WIRE_ITEM_MAX_BYTES = 10_000
    drop(folder_channel, "long.json", ninjs_with_body(2000))
    channel_poll(folder_channel, now=NOW)
    assert "the limit is 10,000" in ChannelLog.objects.get().message


def test_a_document_within_its_bounds_is_received(folder_channel):
    drop(folder_channel, "long.json", ninjs_with_body(500))
    channel_poll(folder_channel, now=NOW)
    assert AgencyItem.objects.count() == 1


# ------------------------------------------------------------------ pictures


def bomb_png(width: int = 40_000, height: int = 40_000) -> bytes:
    """A PNG of a few hundred bytes claiming 1.6 billion pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (width + 1) * 4)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", rows)
        + chunk(b"IEND", b"")
    )


def test_a_decompression_bomb_is_refused_and_the_other_pictures_come(
    feed_channel, agency_server, wire_editor, django_capture_on_commit_callbacks
):
    flash = json.loads(sample_bytes("oasis_flash_en.json", agency_server.base))
    picture = flash["associations"][0]
    bomb = json.loads(json.dumps(picture))
    bomb["uri"] = "urn:wire.example:2026:bomb"
    bomb["renditions"] = [
        {"name": "large", "href": agency_server.base + "pictures/bomb.png"}
    ]
    other = json.loads(json.dumps(picture))
    other["uri"] = "urn:wire.example:2026:souq"
    other["renditions"] = [
        {"name": "large", "href": agency_server.base + "pictures/souq.jpg"}
    ]
    flash["associations"] = [bomb, picture, other]
    agency_server.files["/pictures/bomb.png"] = bomb_png()
    agency_server.serve("/feed", json.dumps(flash).encode())
    channel_poll(feed_channel, now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        article = wire_take(
            agency_item=AgencyItem.objects.get(), by=wire_editor, now=NOW
        ).article
    article.refresh_from_db()
    assert article.hero_image is not None
    assert {"/pictures/dam.jpg", "/pictures/souq.jpg"} <= set(agency_server.requests)
    (entry,) = ChannelLog.objects.filter(level="error")
    assert entry.file_name.endswith("bomb.png")
    assert "pixels" in entry.message
