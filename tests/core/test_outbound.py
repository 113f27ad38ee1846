"""The one door to outside addresses (core.outbound): public addresses only, the
address checked is the address connected to, one deadline, one size bound."""

import logging
import time

import pytest
from django.utils import translation

from core.outbound import (
    OutboundError,
    OutboundRefused,
    address_check,
    is_public,
    request,
)
from tests.outbound_servers import (
    INTERNAL_HOSTS,
    HandshakeTrickler,
    Recorder,
    ScriptedDNS,
    TLSRecorder,
    Trickler,
)

PUBLIC = "93.184.216.34"


@pytest.fixture(autouse=True)
def english_messages():
    """Messages are read in English here; the Arabic catalog has its own check."""
    with translation.override("en"):
        yield


@pytest.fixture
def guarded(settings):
    """The production rule: private addresses refused, DNS answered by the test."""
    settings.OUTBOUND_ALLOW_PRIVATE_ADDRESSES = False
    settings.OUTBOUND_RESOLVER = "tests.outbound_servers.resolve"
    ScriptedDNS.reset()
    return ScriptedDNS


@pytest.fixture
def scripted(settings):
    """DNS answered by the test, loopback allowed (the tests' own servers)."""
    settings.OUTBOUND_RESOLVER = "tests.outbound_servers.resolve"
    ScriptedDNS.reset()
    return ScriptedDNS


@pytest.fixture
def recorder():
    server = Recorder()
    yield server
    server.stop()


@pytest.mark.parametrize("host", INTERNAL_HOSTS)
def test_an_internal_address_is_refused_and_never_called(guarded, recorder, host):
    guarded.reset({"localhost": [["127.0.0.1"]]})
    with pytest.raises(OutboundRefused) as refusal:
        request(recorder.url(host), max_bytes=1000, seconds=2)
    assert "not on the public internet" in str(refusal.value)
    assert recorder.requests == []


def test_a_name_answering_an_internal_address_is_refused(guarded, recorder):
    guarded.reset({"feed.agency.example": [["10.0.0.5"]]})
    with pytest.raises(OutboundRefused):
        request(recorder.url("feed.agency.example"), max_bytes=1000, seconds=2)


def test_a_name_with_one_internal_address_among_public_ones_is_refused(guarded):
    guarded.reset({"feed.agency.example": [[PUBLIC, "127.0.0.1"]]})
    with pytest.raises(OutboundRefused):
        address_check("https://feed.agency.example/", schemes=("https",))


def test_an_unknown_host_is_refused_in_the_same_words_as_an_internal_one(guarded):
    """The message must not tell a source manager which internal names exist."""
    guarded.reset({"db.internal.example": [["10.0.0.9"]]})
    with pytest.raises(OutboundRefused) as internal:
        address_check("https://db.internal.example/", schemes=("https",))
    with pytest.raises(OutboundRefused) as unknown:
        address_check("https://nothing.example/", schemes=("https",))
    assert str(internal.value) == str(unknown.value)


def test_a_public_address_passes_the_check(guarded):
    guarded.reset({"feed.agency.example": [[PUBLIC]]})
    address_check("https://feed.agency.example/feed", schemes=("https",))


def test_the_connection_goes_to_the_address_looked_up_once(scripted, recorder):
    """A DNS answer that changes after the lookup changes nothing: the host is
    looked up once and that address is the one connected to."""
    # Both servers on the same port, so only the address tells them apart.
    other = Recorder("127.0.0.2", port=recorder.port)
    scripted.reset({"feed.agency.example": [["127.0.0.1"], ["127.0.0.2"]]})
    try:
        answer = request(recorder.url("feed.agency.example"), max_bytes=1000, seconds=2)
    finally:
        other.stop()
    assert answer.status == 200 and answer.body == b"hello"
    assert recorder.requests == ["/feed"] and other.requests == []
    assert scripted.lookups == ["feed.agency.example"]


def test_a_public_answer_then_a_loopback_one_never_reaches_loopback(guarded, recorder):
    """DNS rebinding: public when checked, loopback a moment later; the second
    answer is never asked for and the loopback server is never called."""
    guarded.reset({"feed.agency.example": [["2001:4860:4860::8888"], ["127.0.0.1"]]})
    with pytest.raises(OutboundError):
        request(recorder.url("feed.agency.example"), max_bytes=1000, seconds=1)
    assert guarded.lookups == ["feed.agency.example"]
    assert recorder.requests == []


def test_the_host_name_travels_in_the_host_header(scripted, recorder):
    scripted.reset({"feed.agency.example": [["127.0.0.1"]]})
    request(recorder.url("feed.agency.example"), max_bytes=1000, seconds=2)
    assert recorder.hosts == [f"feed.agency.example:{recorder.port}"]


def test_a_trickling_answer_is_cut_at_the_deadline():
    """One byte every half second: the whole download has one deadline, not
    one per read."""
    trickler = Trickler(every=0.5, count=40)
    started = time.monotonic()
    try:
        with pytest.raises(OutboundError) as failure:
            request(trickler.base + "feed", max_bytes=100_000, seconds=2)
    finally:
        trickler.stop()
    elapsed = time.monotonic() - started
    assert 1.9 < elapsed < 3
    assert "in time" in str(failure.value)
    assert trickler.sent < 10


def test_a_trickling_tls_handshake_is_cut_at_the_deadline():
    """The deadline holds from the first byte: a server that drags the TLS
    handshake out, a byte at a time, is cut like a trickling answer."""
    server = HandshakeTrickler(every=0.3, count=60)
    started = time.monotonic()
    try:
        with pytest.raises(OutboundError) as failure:
            request(f"https://127.0.0.1:{server.port}/", max_bytes=1000, seconds=2)
    finally:
        server.stop()
    assert time.monotonic() - started < 3
    assert "in time" in str(failure.value)


def test_an_answer_over_the_size_bound_is_refused(recorder):
    recorder.body = b"x" * 5000
    with pytest.raises(OutboundError) as failure:
        request(recorder.url("127.0.0.1"), max_bytes=1000, seconds=2)
    assert "over the limit" in str(failure.value)


def test_an_answer_may_be_cut_at_the_bound_instead(recorder):
    recorder.body = b"x" * 5000
    answer = request(
        recorder.url("127.0.0.1"), max_bytes=1000, seconds=2, cut_at_limit=True
    )
    assert answer.body == b"x" * 1000


def test_a_connection_error_names_no_host_or_port(caplog, recorder):
    port = recorder.port
    recorder.stop()
    with (
        caplog.at_level(logging.WARNING, logger="core.outbound"),
        pytest.raises(OutboundError) as failure,
    ):
        request(f"http://127.0.0.1:{port}/feed", max_bytes=1000, seconds=2)
    message = str(failure.value)
    assert message == "The address could not be reached."
    assert str(port) in caplog.text  # the detail is in the server's log


def test_only_the_schemes_given_are_called():
    with pytest.raises(OutboundRefused) as refusal:
        request("file:///etc/passwd", max_bytes=1000, seconds=1)
    assert "http" in str(refusal.value)


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("93.184.216.34", True),
        ("2001:4860:4860::8888", True),
        ("127.0.0.1", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:10.0.0.1", False),
        ("2002:7f00:1::", False),  # 6to4 carrying 127.0.0.1
        ("169.254.169.254", False),
        ("168.63.129.16", False),  # Azure's host service, global to ipaddress
        ("100.100.100.200", False),
        ("fd00:ec2::254", False),
        ("224.0.0.1", False),
        ("0.0.0.0", False),  # noqa: S104
        ("::", False),
    ],
)
def test_which_addresses_are_public(address, public):
    assert is_public(address) is public


def test_https_names_the_host_in_tls_and_checks_its_certificate(
    scripted, tmp_path, caplog
):
    """Connected to the checked address, TLS still speaks to the host name (SNI)
    and verifies its certificate: a certificate no authority signed is refused."""
    server = TLSRecorder(tmp_path, "feed.agency.example")
    scripted.reset({"feed.agency.example": [["127.0.0.1"]]})
    try:
        with pytest.raises(OutboundError):
            request(
                f"https://feed.agency.example:{server.port}/feed",
                max_bytes=1000,
                seconds=2,
            )
    finally:
        server.stop()
    assert server.server_names == ["feed.agency.example"]
    assert server.recorder.requests == []
    assert "CERTIFICATE_VERIFY_FAILED" in caplog.text
