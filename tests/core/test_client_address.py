"""The reader's address behind proxies, as the lockout and rate limits count it."""

from axes.helpers import get_client_ip_address
from django.test import RequestFactory

from core.client_address import client_address

PROXY = "10.0.0.2"


def request(forwarded: str = ""):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    return RequestFactory().get("/", REMOTE_ADDR=PROXY, **extra)


def test_without_proxies_the_connection_is_the_reader(settings):
    """With no proxy counted, X-Forwarded-For is ignored: anyone can send it."""
    settings.PROXY_COUNT = 0
    assert client_address(request("203.0.113.9")) == PROXY


def test_behind_one_proxy_the_reader_is_the_address_it_forwarded(settings):
    """Behind nginx, the address nginx appended is the reader's."""
    settings.PROXY_COUNT = 1
    assert client_address(request("203.0.113.9")) == "203.0.113.9"


def test_an_address_the_reader_forged_is_not_believed(settings):
    """A reader who sends their own X-Forwarded-For cannot pick their address."""
    settings.PROXY_COUNT = 1
    assert client_address(request("198.51.100.7, 203.0.113.9")) == "203.0.113.9"


def test_the_lockout_and_rate_limits_use_it(settings):
    """axes (and the rate limits, through axes) ask this function."""
    settings.PROXY_COUNT = 1
    assert get_client_ip_address(request("203.0.113.9")) == "203.0.113.9"
