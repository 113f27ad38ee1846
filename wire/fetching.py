"""Reading from outside: a feed's document or an agency's picture, over HTTP(S)
only, with a time limit and a size limit (a hostile or broken server can neither
hold a worker nor fill its memory)."""

import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from .formats import WireFormatError

TIMEOUT_SECONDS = 20
USER_AGENT = "newsroom-wire/1"


class FetchError(WireFormatError):
    """The document could not be fetched; the message says why."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect could lead anywhere, the newsroom's own network included: the
    address given is the only one read."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise FetchError(f"{req.full_url[:100]} redirects elsewhere ({code}).")


_opener = urllib.request.build_opener(_NoRedirects)


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


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
    if urlsplit(url).scheme not in ("http", "https"):
        raise FetchError(f"Only http and https addresses are read, not {url[:100]}.")
    if hosts is not None and host_of(url) not in hosts:
        raise FetchError(
            f"{url[:100]} is not on a host this channel fetches pictures from."
        )
    headers = {"User-Agent": USER_AGENT}
    if authorization:
        headers["Authorization"] = authorization
    if etag:
        headers["If-None-Match"] = etag
    if modified:
        headers["If-Modified-Since"] = modified
    request = urllib.request.Request(url, headers=headers)
    try:
        with _opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > max_bytes:
                raise FetchError(
                    f"{url[:100]} is {int(length):,} bytes; the limit is {max_bytes:,}."
                )
            data = response.read(max_bytes + 1)
            answer = Fetched(
                data,
                response.headers.get_content_type(),
                (response.headers.get("ETag") or "")[:200],
                (response.headers.get("Last-Modified") or "")[:100],
            )
    except FetchError:
        raise
    except urllib.error.HTTPError as exc:
        if exc.code == 304:
            return Fetched(None, etag=etag, modified=modified)
        raise FetchError(f"{url[:100]} could not be read: {exc}") from None
    except (OSError, ValueError) as exc:
        raise FetchError(f"{url[:100]} could not be read: {exc}") from None
    if len(data) > max_bytes:
        raise FetchError(f"{url[:100]} is over the limit of {max_bytes:,} bytes.")
    return answer
