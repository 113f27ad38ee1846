"""One HTTP POST to a partner's endpoint, made safe for a server that sends on
its own: HTTPS only, never an address inside our own network, no redirects, a
deadline and an answer read only in part. The address rule and the connection
are `core.outbound`'s, the same as the wire's: the address checked is the address
connected to."""

import time
from dataclasses import dataclass

from django.conf import settings

from core.outbound import OutboundError, OutboundRefused, address_check, request

# The part of a partner's answer kept for the admin to read.
ANSWER_KEPT = 2000

AddressRefused = OutboundRefused


@dataclass(frozen=True)
class Answer:
    status_code: int | None
    body: str
    error: str
    duration_ms: int

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def schemes() -> tuple[str, ...]:
    return ("https", "http") if settings.WEBHOOKS_ALLOW_HTTP else ("https",)


def check_url(url: str) -> None:
    """Raise AddressRefused unless `url` may be called: HTTPS (plain HTTP only
    where settings allow it, as in tests) on a public address."""
    address_check(url, schemes=schemes())


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST `body` to `url`; never raises for what the network or the partner
    does, it answers with what happened (in words that name no internal host)."""
    started = time.monotonic()

    def answer(status: int | None, text: str = "", error: str = "") -> Answer:
        elapsed = int((time.monotonic() - started) * 1000)
        return Answer(status, text, error[:300], elapsed)

    try:
        got = request(
            url,
            schemes=schemes(),
            method="POST",
            body=body,
            headers={
                **headers,
                "Content-Type": "application/json; charset=utf-8",
                "User-Agent": settings.WEBHOOKS_USER_AGENT,
            },
            max_bytes=ANSWER_KEPT,
            seconds=settings.WEBHOOKS_TIMEOUT,
            cut_at_limit=True,
        )
    except (OutboundRefused, OutboundError) as exc:
        return answer(None, error=str(exc))
    text = got.body.decode("utf-8", "replace")
    # A redirect would send the signed body somewhere the partner did not
    # register: it is never followed, and counts as a failed try.
    return answer(got.status, text, "" if got.status < 300 else f"HTTP {got.status}")
