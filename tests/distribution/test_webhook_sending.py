"""A webhook is sent by the same door as the wire's fetches (core.outbound): an
endpoint inside our network is refused when saved and never called, through a
changed DNS answer too, and a slow partner is cut at the deadline."""

import time

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from core.roles import EDITORS
from distribution.models import Event, Partner, WebhookEndpoint
from distribution.services import partner_save
from distribution.webhooks.sending import post
from distribution.webhooks.services import webhook_save
from tests.factories import member_of
from tests.outbound_servers import INTERNAL_HOSTS, ScriptedDNS, Trickler

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_messages():
    """Messages are read in English here; the Arabic catalog has its own check."""
    with translation.override("en"):
        yield


@pytest.fixture
def guarded(settings):
    settings.OUTBOUND_ALLOW_PRIVATE_ADDRESSES = False
    settings.OUTBOUND_RESOLVER = "tests.outbound_servers.resolve"
    ScriptedDNS.reset({"localhost": [["127.0.0.1"]]})
    return ScriptedDNS


@pytest.fixture
def editor():
    return member_of(EDITORS)


@pytest.fixture
def partner(editor):
    return partner_save(partner=Partner(name="Gulf Daily"), by=editor)


def port_of(receiver) -> int:
    return int(receiver.url.split(":")[2].split("/")[0])


@pytest.mark.parametrize("host", INTERNAL_HOSTS)
def test_an_endpoint_inside_our_network_is_refused_when_saved(
    guarded, partner, editor, host
):
    with pytest.raises(ValidationError) as refusal:
        webhook_save(
            endpoint=WebhookEndpoint(partner=partner, url=f"https://{host}/in"),
            by=editor,
            events=[Event.PUBLISHED],
        )
    assert "not on the public internet" in str(refusal.value)
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize("host", INTERNAL_HOSTS)
def test_an_endpoint_inside_our_network_is_never_called(guarded, receiver, host):
    answer = post(f"http://{host}:{port_of(receiver)}/in", b"{}", {})
    assert answer.status_code is None
    assert "not on the public internet" in answer.error
    assert receiver.received == []


def test_an_endpoint_whose_dns_answer_changes_is_never_called_on_loopback(
    guarded, receiver, settings
):
    """Public when checked, loopback a moment later: looked up once, and the
    receiver on loopback never hears a thing."""
    settings.WEBHOOKS_TIMEOUT = 1
    guarded.reset({"hooks.partner.example": [["2001:4860:4860::8888"], ["127.0.0.1"]]})
    answer = post(f"http://hooks.partner.example:{port_of(receiver)}/in", b"{}", {})
    assert answer.status_code is None
    assert guarded.lookups == ["hooks.partner.example"]
    assert receiver.received == []


def test_an_unreachable_endpoint_is_told_in_general_terms(receiver):
    answer = post(receiver.url.replace(str(port_of(receiver)), "9"), b"{}", {})
    assert answer.error == "The address could not be reached."


def test_a_slow_partner_is_cut_at_the_deadline(settings):
    settings.WEBHOOKS_TIMEOUT = 1
    trickler = Trickler(every=0.3, count=100)
    started = time.monotonic()
    try:
        answer = post(trickler.base + "in", b"{}", {})
    finally:
        trickler.stop()
    assert time.monotonic() - started < 2
    assert answer.status_code is None
    assert answer.error == "The address did not answer in time."
