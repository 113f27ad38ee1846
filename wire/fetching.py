"""Reading from outside: a feed's document or an agency's picture, over HTTP(S)
only, with a time limit and a size limit (a hostile or broken server can neither
hold a worker nor fill its memory)."""

import urllib.request
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


def fetch(
    url: str, *, max_bytes: int, hosts: set[str] | None = None
) -> tuple[bytes, str]:
    """The body and content type at `url`, or FetchError; with `hosts`, only an
    address on one of those hosts is read (an agency's item names the pictures
    to fetch, and must not make the newsroom read its own network)."""
    if urlsplit(url).scheme not in ("http", "https"):
        raise FetchError(f"Only http and https addresses are read, not {url[:100]}.")
    if hosts is not None and host_of(url) not in hosts:
        raise FetchError(
            f"{url[:100]} is not on a host this channel fetches pictures from."
        )
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with _opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > max_bytes:
                raise FetchError(
                    f"{url[:100]} is {int(length):,} bytes; the limit is {max_bytes:,}."
                )
            data = response.read(max_bytes + 1)
            kind = response.headers.get_content_type()
    except FetchError:
        raise
    except (OSError, ValueError) as exc:
        raise FetchError(f"{url[:100]} could not be read: {exc}") from None
    if len(data) > max_bytes:
        raise FetchError(f"{url[:100]} is over the limit of {max_bytes:,} bytes.")
    return data, kind
