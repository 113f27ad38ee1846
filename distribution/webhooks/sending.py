"""One HTTP POST to a partner's endpoint, made safe for a server that sends on
its own: HTTPS only, no redirects, a short timeout, an answer read only in part,
and never an address inside our own network (a partner's URL must not be a way
to reach our database or metadata service)."""

import ipaddress
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

# The part of a partner's answer kept for the admin to read.
ANSWER_KEPT = 2000


class AddressRefused(ValueError):
    """The endpoint's address may not be called."""


@dataclass(frozen=True)
class Answer:
    status_code: int | None
    body: str
    error: str
    duration_ms: int

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def check_url(url: str) -> None:
    """Raise AddressRefused unless `url` may be called: HTTPS (plain HTTP only
    where settings allow it, as in tests) and a host name."""
    parts = urlsplit(url)
    schemes = ("https", "http") if settings.WEBHOOKS_ALLOW_HTTP else ("https",)
    if parts.scheme not in schemes:
        raise AddressRefused("The address must start with https://.")
    if not parts.hostname:
        raise AddressRefused("The address names no host.")


def _check_host(host: str, port: int) -> None:
    """Refuse a host any of whose addresses is private, loopback, link-local or
    otherwise not on the public internet."""
    if settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES:
        return
    try:
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except socket.gaierror as exc:
        raise AddressRefused(f"The host {host} could not be found ({exc}).") from exc
    for *_rest, address in found:
        ip = ipaddress.ip_address(address[0])
        if not ip.is_global:
            raise AddressRefused(f"The host {host} is not on the public internet.")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    # A redirect would send the signed body somewhere the partner did not
    # register (and past the address check): it counts as a failed try.
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST `body` to `url`; never raises for what the network or the partner
    does, it answers with what happened."""
    started = time.monotonic()

    def answer(status: int | None, text: str = "", error: str = "") -> Answer:
        elapsed = int((time.monotonic() - started) * 1000)
        return Answer(status, text, error[:300], elapsed)

    try:
        check_url(url)
        parts = urlsplit(url)
        _check_host(
            parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        )
    except AddressRefused as exc:
        return answer(None, error=str(exc))
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            **headers,
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": settings.WEBHOOKS_USER_AGENT,
        },
    )
    try:
        with _opener.open(request, timeout=settings.WEBHOOKS_TIMEOUT) as response:
            text = response.read(ANSWER_KEPT).decode("utf-8", "replace")
            return answer(response.status, text)
    except urllib.error.HTTPError as exc:
        text = exc.read(ANSWER_KEPT).decode("utf-8", "replace") if exc.fp else ""
        return answer(exc.code, text, f"HTTP {exc.code}")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        return answer(None, error=f"{type(exc).__name__}: {reason}")
