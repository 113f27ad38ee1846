"""The last check on what leaves: no public response carries a protected legal name.

Every write door runs the identity gate, which gives an editor a clear message; this
is the guarantee behind it. Each public response (pages, feeds, sitemaps, robots,
search, share-link previews, error pages) is read with the same matcher after it is
rendered and before it is cached or sent: the page cache stores what this let
through, so a cached page was checked when it was made, and any change that could
make it unsafe (protecting someone, a new spelling) purges it.

What the reader typed and the page shows back (a search's query) is read as a
token and shown as typed only after the check (core.echo): answering it is
never an oracle, and it hides none of the page's own text.

A response holding a legal spelling is withheld: the reader gets a neutral page
(503, never cached), and the newsroom an audit event and an error log naming the
address and the pseudonym, never the name. `audit_identities` reports them.

The protected people's spellings are kept in each process and reloaded when a
person changes (identity.cache), so the check costs no query.
"""

import gzip
import logging
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.http import HttpResponse
from django.template import loader

from audit.services import audit_record
from core.echo import echoed_values, restored_response
from identity.cache import current_gate, people_in_body
from identity.gate import IdentityGate
from identity.models import Person

from .audit_actions import Action
from .page_cache import keep_only, read_query, route_parameters

logger = logging.getLogger(__name__)

# Addresses that are not the public's (the admin has its own rules) or carry no
# text of ours (files are checked where they are made: images' names and metadata).
_NOT_PUBLIC = ("/admin/", "/static/", "/media/", "/healthz")
_TEXT_TYPES = ("text/", "application/xml", "application/json", "+xml", "+json")
_EDITIONS = frozenset(code for code, _name in settings.LANGUAGES)
# Stands for a part of an address that spells a legal name, in logs and reports.
WITHHELD = "…"


def is_checked(request, response) -> bool:
    """Whether `response` is public text (or a redirect) this check reads."""
    if response.streaming or request.path.startswith(_NOT_PUBLIC):
        return False
    if response.has_header("Location"):
        return True
    content_type = response.get("Content-Type", "")
    return any(kind in content_type for kind in _TEXT_TYPES)


def _bare_path(path: str) -> str:
    """A path without its edition's prefix and its last slash."""
    first, _slash, rest = path.lstrip("/").partition("/")
    if first in _EDITIONS:
        path = rest
    return path.strip("/")


def echoed_address(request, location: str) -> bool:
    """Whether a redirect to `location` only repeats the address the reader asked
    for, with an edition's prefix or a last slash added (Django's locale and common
    middleware): the reader's own words, which are no oracle to answer; what the
    browser then reads there is checked as its own response."""
    target = urlsplit(location)
    if target.netloc and target.netloc != request.get_host():
        return False
    asked = request.META.get("QUERY_STRING", "")
    return target.query == asked and _bare_path(unquote(target.path)) == _bare_path(
        request.path
    )


def printable_url(gate: IdentityGate, url: str) -> str:
    """`url` decoded for reading, with any part that spells a protected legal name
    withheld: a slug written around the gate may hold the very name reported."""
    path, mark, query = unquote(url).partition("?")
    parts = [WITHHELD if gate.people_in(part) else part for part in path.split("/")]
    shown = "/".join(parts) + mark + query
    return WITHHELD if gate.people_in(shown) else shown


def record_withheld(url: str, people: list[Person], gate: IdentityGate) -> None:
    """Record in the audit trail and the error log, by address and pseudonym, that
    what `url` would have sent was withheld for holding these people's legal names."""
    address = printable_url(gate, url)
    for person in people:
        logger.error(
            "Withheld %s: it holds the legal name of the protected person %s "
            "(person #%s).",
            address,
            person.display_name,
            person.pk,
        )
        audit_record(
            by=None,
            action=Action.WITHHELD,
            obj=person,
            message=address,
        )


def withheld(request, people: list[Person], gate: IdentityGate) -> HttpResponse:
    """The neutral page in place of a response that holds a legal name, recorded
    in the audit trail and the error log by address and pseudonym."""
    record_withheld(request.get_full_path(), people, gate)
    response = HttpResponse(
        loader.render_to_string("publishing/withheld.html", request=request),
        status=503,
    )
    response["Cache-Control"] = "no-store"
    # For audit_identities, which renders pages in-process: who was found.
    response.withheld_people = people
    return response


def _as_read(response) -> bytes:
    """The body as the reader's client reads it: a body a view compressed
    (gzip_page) decompressed. One in an encoding this check cannot read is never
    sent unread (_Unreadable)."""
    encoding = response.get("Content-Encoding", "identity").strip().lower()
    if encoding == "identity":
        return response.content
    if encoding == "gzip":
        try:
            return gzip.decompress(response.content)
        except (OSError, EOFError) as error:
            raise _Unreadable(encoding) from error
    raise _Unreadable(encoding)


class _Unreadable(Exception):
    """A body this check cannot read: withheld, as one holding a name would be."""


class OutputCheckMiddleware:
    """Reads every public response for protected legal names before the page cache
    stores it or the reader gets it; withholds any that holds one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.GET and not request.path.startswith(_NOT_PUBLIC):
            names = route_parameters(request.path_info)
            if names is not None:
                # What the view does not read is not repeated either (in the
                # other edition's link), for no reader.
                keep_only(request, read_query(request.META["QUERY_STRING"], names))
            gate = current_gate()
            if gate and request.GET:
                # The reader's own words, wherever the page repeats its address.
                echoed_values(request, gate.people_in)
        response = self.get_response(request)
        try:
            people, gate = self.people_in(request, response)
        except _Unreadable as error:
            logger.error("Withheld %s: its body is %s, unread.", request.path, error)
            return withheld(request, [], current_gate())
        if people:
            return withheld(request, people, gate)
        # Read with the reader's own words as tokens: now shown as typed.
        return restored_response(request, response)

    def people_in(self, request, response) -> tuple[list[Person], IdentityGate | None]:
        """The protected people whose legal names `response` holds, and the gate."""
        if not is_checked(request, response):
            return [], None
        gate = current_gate()
        if not gate:
            return [], gate
        body = _as_read(response)
        # A redirect's target is what the reader's browser is sent to read,
        # unless it is only the reader's own address again (see echoed_address).
        location = response.get("Location")
        if location and not echoed_address(request, location):
            body = location.encode() + b"\n" + body
        return people_in_body(gate, body, response.charset or "utf-8"), gate
