"""Reading from outside: a feed's document or an agency's picture, through the
newsroom's one door to outside addresses (`core.outbound`: public addresses only,
the checked address connected to, no redirects, one deadline for the whole
download, a size bound). What a source manager reads in the channel's log is
generic; the host, port and error are in the server's log."""

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from core.outbound import OutboundError, OutboundRefused, address_check, request

from .formats import WireFormatError

USER_AGENT = "newsroom-wire/1"
SCHEMES = ("https", "http")


class FetchError(WireFormatError):
    """The document could not be fetched; the message says why, in general terms."""


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


def address_refusal(url: str) -> str:
    """Why `url` may not be read by the wire ("" when it may): the rule checked
    when a channel is saved and again at every fetch."""
    try:
        address_check(url, schemes=SCHEMES)
    except OutboundRefused as exc:
        return str(exc)
    return ""


@dataclass
class Fetched:
    """What an address answered: its body (None when unchanged since the
    validators sent), content type and validators for the next request."""

    data: bytes | None
    kind: str = ""
    etag: str = ""
    modified: str = ""


def fetch(
    url: str,
    *,
    max_bytes: int,
    hosts: set[str] | None = None,
    etag: str = "",
    modified: str = "",
    authorization: str = "",
) -> Fetched:
    """What `url` holds, or FetchError; with `hosts`, only an address on one of
    those hosts is read (an agency's item names the pictures to fetch, and must
    not make the newsroom read its own network). With the validators of the last
    answer (`etag`, `modified`), an unchanged document is not sent again;
    `authorization` is sent as the Authorization header (never in a message)."""
    if hosts is not None and host_of(url) not in hosts:
        raise FetchError(
            _("%(url)s is not on a host this channel fetches pictures from.")
            % {"url": url[:100]}
        )
    headers = {"User-Agent": USER_AGENT}
    if authorization:
        headers["Authorization"] = authorization
    if etag:
        headers["If-None-Match"] = etag
    if modified:
        headers["If-Modified-Since"] = modified
    try:
        answer = request(
            url,
            schemes=SCHEMES,
            headers=headers,
            max_bytes=max_bytes,
            seconds=settings.WIRE_FETCH_SECONDS,
        )
    except (OutboundRefused, OutboundError) as exc:
        raise FetchError(
            _("%(url)s could not be read: %(reason)s")
            % {"url": url[:100], "reason": exc}
        ) from None
    if answer.status == 304:
        return Fetched(None, etag=etag, modified=modified)
    if 300 <= answer.status < 400:
        raise FetchError(
            _("%(url)s redirects elsewhere (%(status)s); it is not followed.")
            % {"url": url[:100], "status": answer.status}
        )
    if answer.status != 200:
        raise FetchError(
            _("%(url)s could not be read: the server answered %(status)s.")
            % {"url": url[:100], "status": answer.status}
        )
    return Fetched(
        answer.body,
        answer.header("content-type").split(";", 1)[0].strip().lower(),
        answer.header("etag")[:200],
        answer.header("last-modified")[:100],
    )
