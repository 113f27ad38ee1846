"""Every request the newsroom makes to an address someone typed or an agency sent
(a wire feed, an agency's picture, a partner's webhook), made one way.

An outside address must not be a way into our own network: the host is resolved
once, every address it has must be on the public internet (no loopback, private,
link-local, shared, reserved or cloud-metadata address, IPv4-mapped IPv6 included),
and the connection is made to the address that was checked, the host name going in
the Host header and in TLS (SNI and the certificate's check), so a DNS answer that
changes between the check and the connection changes nothing. No redirect is
followed; the whole exchange has one deadline (not one per read) and the answer a
size bound. What went wrong is logged here in full; callers show people only the
generic `OutboundError` text, which names no internal host, port or error.

`OUTBOUND_ALLOW_PRIVATE_ADDRESSES` lets tests reach their own servers on loopback;
`OUTBOUND_RESOLVER` (a dotted path to `resolve(host, port) -> list[str]`) lets them
answer DNS themselves.
"""

import contextlib
import ipaddress
import logging
import socket
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import HTTPError

logger = logging.getLogger(__name__)

# Cloud metadata services reachable from inside a cloud machine, by name and by
# address (some of these addresses count as public for `ipaddress`).
METADATA_HOSTS = {"metadata", "metadata.google.internal", "metadata.goog"}
METADATA_ADDRESSES = {
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "168.63.129.16", "100.100.100.200", "fd00:ec2::254")
}
# Names that only ever mean a machine of our own.
INTERNAL_SUFFIXES = (".localhost", ".internal", ".local", ".localdomain", ".home.arpa")

_READ_CHUNK = 64 * 1024


class OutboundRefused(ValueError):
    """The address may not be called; the message says why, for the person who
    typed it (it names only what they typed)."""


class OutboundError(ValueError):
    """The address could not be read; the message is generic on purpose (the
    detail is in the server's log)."""


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


def allowed_schemes_refusal(url: str, schemes: tuple[str, ...]) -> None:
    parts = urlsplit(url)
    if parts.scheme not in schemes:
        raise OutboundRefused(
            _("The address must start with %(schemes)s.")
            % {"schemes": _(" or ").join(f"{s}://" for s in schemes)}
        )
    if not parts.hostname:
        raise OutboundRefused(_("The address names no host."))


def is_public(address: str) -> bool:
    """Whether `address` (an IP, as text) is on the public internet and is no
    cloud metadata service; IPv6 forms that carry an IPv4 address are judged by
    the IPv4 address they carry."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        carried = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        if any(inner is not None and not is_public(str(inner)) for inner in carried):
            return False
    return ip.is_global and not ip.is_multicast and ip not in METADATA_ADDRESSES


def _name_is_internal(host: str) -> bool:
    host = host.rstrip(".").lower()
    return (
        host == "localhost"
        or host in METADATA_HOSTS
        or host.endswith(INTERNAL_SUFFIXES)
        # A single label is completed by the server's own search domains.
        or ("." not in host and not _is_ip(host))
    )


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def resolve(host: str, port: int) -> list[str]:
    """The addresses of `host`: the one DNS lookup an outbound request makes."""
    if settings.OUTBOUND_RESOLVER:
        return list(import_string(settings.OUTBOUND_RESOLVER)(host, port))
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in found))


def _port(url: str) -> int:
    parts = urlsplit(url)
    return parts.port or (443 if parts.scheme == "https" else 80)


def checked_addresses(url: str, *, schemes: tuple[str, ...]) -> list[str]:
    """The addresses `url` may be called at, or OutboundRefused: the rule for
    every outside address, at save time and before every request."""
    allowed_schemes_refusal(url, schemes)
    try:
        port = _port(url)
    except ValueError:
        raise OutboundRefused(_("The address's port is not valid.")) from None
    host = urlsplit(url).hostname
    private_allowed = settings.OUTBOUND_ALLOW_PRIVATE_ADDRESSES
    if not private_allowed and _name_is_internal(host):
        raise OutboundRefused(_not_public())
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError) as exc:
        logger.info("Outbound: %s could not be resolved: %s", host, exc)
        addresses = []
    # One answer for "unknown" and "internal": the message must not tell which
    # internal names exist.
    if not addresses:
        raise OutboundRefused(_not_public())
    if not private_allowed and not all(is_public(a) for a in addresses):
        logger.warning("Outbound: %s refused, it resolves to %s", host, addresses)
        raise OutboundRefused(_not_public())
    return addresses


def address_check(url: str, *, schemes: tuple[str, ...]) -> None:
    """OutboundRefused unless `url` may be saved as an outside address (a feed, a
    picture host, a webhook): the same rule as before every request. Where private
    addresses are allowed (tests), the host is not looked up."""
    if settings.OUTBOUND_ALLOW_PRIVATE_ADDRESSES:
        allowed_schemes_refusal(url, schemes)
    else:
        checked_addresses(url, schemes=schemes)


def _not_public() -> str:
    return _("The address is not on the public internet, or its host is unknown.")


def request(
    url: str,
    *,
    schemes: tuple[str, ...] = ("https", "http"),
    method: str = "GET",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    max_bytes: int,
    seconds: float,
    cut_at_limit: bool = False,
) -> Answer:
    """What `url` answers (any status, redirects included, never followed), read
    within `seconds` in all and up to `max_bytes`: past it, OutboundError, or the
    first `max_bytes` when `cut_at_limit`. OutboundRefused when the address may
    not be called, OutboundError when it could not be read."""
    deadline = time.monotonic() + seconds
    addresses = checked_addresses(url, schemes=schemes)
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    host_header = parts.netloc.rsplit("@", 1)[-1]
    sent = {**(headers or {}), "Host": host_header}
    failure = None
    for address in addresses:
        if time.monotonic() >= deadline:
            break
        connection = _connect(
            parts.scheme, address, _port(url), parts.hostname, deadline
        )
        if isinstance(connection, OSError):
            failure = connection  # the next address, if the host has another
            continue
        try:
            return _exchange(
                connection,
                (method, target, body, sent),
                deadline,
                max_bytes,
                cut_at_limit,
            )
        except (OSError, HTTPError, ValueError) as exc:
            if isinstance(exc, OutboundError):
                raise
            failure = exc
            break
    logger.warning(
        "Outbound: %s %s (at %s) could not be read: %r", method, url, addresses, failure
    )
    if time.monotonic() >= deadline:
        raise OutboundError(_("The address did not answer in time."))
    raise OutboundError(_("The address could not be reached."))


def _connect(scheme, address, port, hostname, deadline):
    """A connection to `address` itself (TLS checked for `hostname`), or the
    OSError that kept it from being made."""
    remaining = max(deadline - time.monotonic(), 0.001)
    if scheme == "https":
        connection = HTTPSConnection(
            address,
            port,
            timeout=remaining,
            server_hostname=hostname,
            assert_hostname=hostname,
            cert_reqs="CERT_REQUIRED",
        )
    else:
        connection = HTTPConnection(address, port, timeout=remaining)
    try:
        connection.connect()
    except (OSError, HTTPError) as exc:
        connection.close()
        return exc if isinstance(exc, OSError) else OSError(str(exc))
    return connection


def _exchange(connection, message, deadline, max_bytes, cut) -> Answer:
    method, target, body, headers = message
    # The deadline is over the whole exchange: a server sending a byte now and
    # then resets a socket's timeout at every byte, so a timer cuts it.
    watchdog = threading.Timer(
        max(deadline - time.monotonic(), 0.001), _cut, args=(connection,)
    )
    watchdog.daemon = True
    watchdog.start()
    try:
        connection.request(
            method,
            target,
            body=body,
            headers=headers,
            preload_content=False,
            decode_content=False,
        )
        response = connection.getresponse()
        length = response.headers.get("Content-Length", "")
        if not cut and length.isdigit() and int(length) > max_bytes:
            raise OutboundError(_too_large(max_bytes))
        data = bytearray()
        while len(data) <= max_bytes:
            # Undecoded: we ask for no compression, and a compressed answer must
            # not grow past the bound while being read.
            chunk = response.read1(_READ_CHUNK, decode_content=False)
            if not chunk:
                break
            data += chunk
            if time.monotonic() >= deadline:
                raise OutboundError(_("The address did not answer in time."))
        if len(data) > max_bytes and not cut:
            raise OutboundError(_too_large(max_bytes))
        return Answer(
            response.status,
            {k.lower(): v for k, v in response.headers.items()},
            bytes(data[:max_bytes]),
        )
    except (OSError, HTTPError):
        if time.monotonic() >= deadline:
            logger.warning("Outbound: %s cut at its deadline", connection.host)
            raise OutboundError(_("The address did not answer in time.")) from None
        raise
    finally:
        watchdog.cancel()
        connection.close()


def _cut(connection) -> None:
    sock = getattr(connection, "sock", None)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def _too_large(max_bytes: int) -> str:
    return _("The answer is over the limit of %(bytes)s bytes.") % {
        "bytes": f"{max_bytes:,}"
    }
