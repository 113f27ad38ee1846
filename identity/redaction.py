"""The admin shows a protected person's pseudonym to whoever may not read the legal
name.

Legal names reach the admin from many places: a withdrawn draft's headline, an
audit event's object, a revision and its diff, an import preview, a message, an
autocomplete answer. Rather than each view hiding them, every admin response is
read once more before it is sent to a user without `identity.view_legal_name`: each
legal spelling is replaced with the person's public name (pseudonym). Identity
officers and superusers get the response unchanged.

The whole response is first read with the output check's reader (well under a
millisecond for a page); only a response holding a name is folded character by
character to find where (identity.text.spans). A spelling the span finder
cannot place in the raw text (split by a tag, written with entities or escapes)
is left as it is and logged, by the pseudonym only.
"""

import html
import json
import logging
from urllib.parse import unquote, urlsplit, urlunsplit

from django.contrib import admin
from django.contrib.admin.views.main import SEARCH_VAR
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import gettext

from core.echo import echoed_query, echoed_values, posted_echo, restored_response

from .cache import current_gate, people_in_body
from .gate import IdentityGate
from .permissions import VIEW_LEGAL_NAME

logger = logging.getLogger(__name__)

_HTML_TYPES = ("text/html", "text/plain")
_JSON_TYPES = ("application/json",)
# The admin's addresses (newsroom/urls.py), as the public output check leaves them.
ADMIN_PREFIX = "/admin/"
# Markup is read in pieces of about this many characters (see redacted_text).
PIECE_CHARS = 4096
# Where the admin carries a list's query to the pages opened from it.
CHANGELIST_FILTERS = "_changelist_filters"


def redacted_text(
    gate: IdentityGate, text: str, *, people=None, markup=True, kept=None
) -> str:
    """`text` with each legal spelling replaced by its person's pseudonym (escaped
    for HTML when `markup`), or by what `kept(text, start, end)` gives for it, if
    anything (the user's own words: see AdminRedactionMiddleware). In markup a
    spelling crossing a tag's bracket is left alone: replacing it would break the
    page's structure."""
    if markup:
        # A spelling crossing a bracket is left alone anyway, so the page is read
        # in pieces ending at a ">": only the pieces holding a name are folded
        # character by character.
        spans = [
            (offset + start, offset + end, person)
            for offset, piece in _pieces(text)
            for start, end, person in gate.spans_in(piece, people=people)
        ]
    else:
        spans = gate.spans_in(text, people=people)
    if not spans:
        return text
    pieces, done = [], 0
    for start, end, person in spans:
        found = text[start:end]
        if markup and ("<" in found or ">" in found):
            continue
        shown = kept(text, start, end) if kept else None
        if shown is None:
            shown = html.escape(person.display_name) if markup else person.display_name
        pieces += [text[done:start], shown]
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _pieces(text: str):
    """(offset, piece) of `text` cut after a ">" every PIECE_CHARS or so."""
    size, start = PIECE_CHARS, 0
    while start < len(text):
        end = text.find(">", start + size)
        end = len(text) if end == -1 else end + 1
        yield start, text[start:end]
        start = end


def redacted_json(gate: IdentityGate, data, *, people=None):
    """`data` (decoded JSON) with every string redacted."""
    if isinstance(data, str):
        return redacted_text(gate, data, people=people, markup=False)
    if isinstance(data, list):
        return [redacted_json(gate, each, people=people) for each in data]
    if isinstance(data, dict):
        return {
            redacted_json(gate, key, people=people): redacted_json(
                gate, value, people=people
            )
            for key, value in data.items()
        }
    return data


def redacted_body(gate: IdentityGate, body: str, content_type: str, people) -> str:
    """A response body with the legal spellings of `people` replaced."""
    if any(kind in content_type for kind in _JSON_TYPES):
        try:
            data = json.loads(body)
        except ValueError:
            return redacted_text(gate, body, people=people, markup=False)
        return json.dumps(redacted_json(gate, data, people=people))
    return redacted_text(gate, body, people=people)


def redacted_location(gate: IdentityGate, location: str) -> str:
    """A redirect's target with each part of its path that spells a legal name
    replaced by "-", and its query dropped if it holds one ("View on site" of a
    story whose slug was written with the name: the site answers the story's own
    address, or that it is gone)."""
    target = urlsplit(location)
    parts = target.path.split("/")
    path = "/".join("-" if gate.people_in(unquote(part)) else part for part in parts)
    query = "" if gate.people_in(unquote(target.query)) else target.query
    if (path, query) == (target.path, target.query):
        return location
    return urlunsplit((target.scheme, target.netloc, path, query, target.fragment))


def _sees_legal_names(user) -> bool:
    return user is not None and user.is_active and user.has_perm(VIEW_LEGAL_NAME)


class AdminRedactionMiddleware:
    """Replaces legal names with pseudonyms in what the admin sends to users who
    may not read them. After the authentication middleware: it asks who is asking."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        redacting = request.path.startswith(ADMIN_PREFIX) and not _sees_legal_names(
            getattr(request, "user", None)
        )
        if redacting:
            # A list's search term, on the list and carried to its stories'
            # pages, is the user's own words: read as a token (core.echo), or a
            # search for a legal name would be withheld where another is answered.
            echoed_query(request, SEARCH_VAR)
            echoed_query(request, SEARCH_VAR, within=CHANGELIST_FILTERS)
            # So is any other value of the address spelling a legal name (an add
            # form's initial headline, a filter): shown as typed, never rewritten.
            gate = current_gate()
            if gate:
                echoed_values(request, gate.people_in)
        response = self.get_response(request)
        if (
            not redacting
            or response.streaming
            # Compressed bytes cannot be read as text.
            or response.has_header("Content-Encoding")
        ):
            return response
        if request.method == "POST":
            _echo_posted(request, response)
        response = self.redacted(request, response)
        return restored_response(request, response)

    def redacted(self, request, response):
        gate = current_gate()
        if not gate:
            return response
        if response.has_header("Location"):
            response["Location"] = redacted_location(gate, response["Location"])
        content_type = response.get("Content-Type", "")
        if not _is_text(content_type):
            return response
        charset = response.charset or "utf-8"
        people = people_in_body(gate, response.content, charset)
        if not people:
            return response
        body = response.content.decode(charset, "replace")
        if request.method == "POST" and any(k in content_type for k in _HTML_TYPES):
            redacted = redacted_text(gate, body, people=people, kept=own_words(request))
        else:
            redacted = redacted_body(gate, body, content_type, people)
        _set_content(response, redacted.encode(charset))
        left = gate.people_in_output(redacted)
        if left:
            return withheld_from_user(request, left, content_type)
        return response


def _is_text(content_type: str) -> bool:
    return any(kind in content_type for kind in _HTML_TYPES + _JSON_TYPES)


def _set_content(response, content: bytes) -> None:
    response.content = content
    if response.has_header("Content-Length"):
        response["Content-Length"] = str(len(content))


def own_words(request):
    """For a spelling found on the page the user's form was answered with: a
    token standing for it (core.echo) when the text around it, up to the tags on
    either side, is a piece of what they posted (an import's preview shows the
    pasted headline and paragraphs), which they are shown back as typed; else
    None, and it is redacted. The whole run of text, not the spelling alone: a
    name posted alone must not unmask where stored text names that person."""
    posted = [
        value.replace("\r\n", "\n")
        for _name, values in request.POST.lists()
        for value in values
    ]

    def kept(text: str, start: int, end: int) -> str | None:
        run = text[text.rfind(">", 0, start) + 1 : _next_tag(text, end)]
        if not any(html.unescape(run).strip() in value for value in posted):
            return None
        return str(posted_echo(request, html.unescape(text[start:end])))

    return kept


def _next_tag(text: str, end: int) -> int:
    found = text.find("<", end)
    return len(text) if found == -1 else found


def _echo_posted(request, response) -> None:
    """Stand a token for each value the user posted that a refused form shows
    back to them and that holds a legal spelling: their own words, which the
    redaction must neither rewrite (the pseudonym in place of what they typed
    would tell them who is protected, and under which name) nor withhold."""
    gate = current_gate()
    content_type = response.get("Content-Type", "")
    if not gate or not any(kind in content_type for kind in _HTML_TYPES):
        return
    charset = response.charset or "utf-8"
    body = response.content.decode(charset, "replace")
    shown = body
    for values in request.POST.lists():
        for value in values[1]:
            typed = escape(value)
            if typed in body and gate.people_in(value):
                body = body.replace(typed, str(posted_echo(request, value)))
    if body != shown:
        _set_content(response, body.encode(charset))


def withheld_from_user(request, people, content_type: str) -> HttpResponse:
    """In place of an admin page holding a legal spelling the redaction could not
    place: nothing of the page, and who can open it."""
    for person in people:
        logger.warning(
            "Withheld %s from %s: a legal spelling of the protected person %s "
            "(person #%s) could not be replaced.",
            request.path,
            request.user.get_username(),
            person.display_name,
            person.pk,
        )
    message = gettext(
        "This page holds the legal name of a protected person in a form that "
        "cannot be hidden from you. An identity officer can open it."
    )
    if any(kind in content_type for kind in _JSON_TYPES):
        return JsonResponse({"error": message}, status=403)
    context = {
        **admin.site.each_context(request),
        "title": gettext("Page withheld"),
        "message": message,
    }
    html_page = render_to_string("admin/legal_name_withheld.html", context, request)
    return HttpResponse(html_page, status=403)
