"""What a reader typed, shown back to them, read past by the checks on output.

A search page repeats its query (the title, the search box, the links to the next
page, an admin list's filters). Were the output check or the admin's redaction to
read that echo, a search for a protected person's legal name would be withheld
where a search for any other name is answered: an oracle telling who is
protected. Nor may they skip the page, which shows our content beside the echo.

So the page is rendered with a token in place of each echo, read like any page,
and only then are the tokens replaced by what the reader typed, escaped for where
each stands. A token is letters and digits, which no escaping changes and no
protected spelling holds (random, made afresh for each request).
"""

import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote_plus

from django.http import HttpRequest, HttpResponse, QueryDict
from django.utils.html import escape

# Where an echo stands within a query string: a value ("?q=…") or a parameter's
# name ("?…=1", "&…=1", "&amp;…=1" in markup); or within a query string that is
# itself a query value (the admin's "_changelist_filters=q%3D…").
_IN_QUERY = ("=", "?", "&amp;", "&")
_IN_NESTED_QUERY = ("%3D", "%3F", "%26")
_PLACE = "|".join(re.escape(prefix) for prefix in (*_IN_NESTED_QUERY, *_IN_QUERY))
_TEXT_TYPES = ("text/", "json", "xml")


@dataclass(frozen=True)
class Echo:
    """One value the reader sent, and the token standing for it while the page is
    read."""

    value: str
    token: str

    def __str__(self) -> str:
        return self.token

    def __bool__(self) -> bool:
        return bool(self.value)

    def restored(self, body: str, *, markup: bool = True) -> str:
        """`body` with the token replaced by the value, encoded for each place: in
        a query string, in a nested query string, or as text (HTML, or JSON when
        not `markup`)."""
        # Percent-encoded: nothing in it for markup to escape.
        once = quote_plus(self.value)
        places = {prefix: prefix + once for prefix in _IN_QUERY}
        places |= {prefix: prefix + quote_plus(once) for prefix in _IN_NESTED_QUERY}
        text = escape(self.value) if markup else json.dumps(self.value)[1:-1]
        pattern = rf"({_PLACE})?{self.token}"
        return re.sub(pattern, lambda found: places.get(found.group(1), text), body)


def reader_echo(request: HttpRequest, parameter: str, value: str) -> Echo:
    """An echo of `value`, sent as query `parameter`: the page shows the Echo (its
    token) and the query strings the page builds from `request.GET` hold it too,
    until the page has been read."""
    if not value:
        return Echo(value="", token="")
    echo = _echo(request, value)
    query = request.GET.copy()
    query[parameter] = echo.token
    request.GET = query
    return echo


def echoed_query(request: HttpRequest, parameter: str, *, within: str = "") -> None:
    """Stand a token for query `parameter` of the request, or for `parameter` of
    the query string held in query value `within` (an admin list's filters carried
    to a change page), in `request.GET` and in the query string itself, before a
    view reads them."""
    query = request.GET.copy()
    if within:
        nested = QueryDict(query.get(within, ""), mutable=True)
        if not nested.get(parameter):
            return
        nested[parameter] = _echo(request, nested[parameter]).token
        query[within] = nested.urlencode()
    elif query.get(parameter):
        query[parameter] = _echo(request, query[parameter]).token
    else:
        return
    request.GET = query
    request.META["QUERY_STRING"] = query.urlencode()


def posted_echo(request: HttpRequest, value: str) -> Echo:
    """An echo of `value`, posted in a form the page shows back, once the view
    has rendered it: the caller puts its token in place of the value."""
    return _echo(request, value)


def echoed_values(request: HttpRequest, wanted: Callable[[str], bool]) -> None:
    """Stand a token for every query value and parameter name of the request that
    `wanted` picks (one spelling a protected name), in `request.GET` and the query
    string: whatever the page repeats of its address (the other edition's link, a
    form's hidden field, the next page) repeats the reader's own words, shown as
    typed once the page is read."""
    if not request.GET:
        return

    made: set[str] = set()

    def token(text: str) -> str:
        # A token already is the reader's words: never one for a token.
        if not text or text in made:
            return text
        made.add(echo := _echo(request, text).token)
        return echo

    parts = [
        (
            token(name) if wanted(name) else name,
            [token(v) if wanted(v) else v for v in values],
        )
        for name, values in request.GET.lists()
    ]
    # The page may repeat the whole query string, whose "=" and "&" read as
    # spaces: a name split across parameters ("?q=مازن&x=الخطيب") makes every
    # value an echo, and then, if it still reads so, every parameter's name.
    if _whole(parts, wanted):
        parts = [(name, [token(v) for v in values]) for name, values in parts]
    if _whole(parts, wanted):
        parts = [(token(name), values) for name, values in parts]
    query = QueryDict(mutable=True)
    for name, values in parts:
        query.setlist(name, values)
    if query != request.GET:
        request.GET = query
        request.META["QUERY_STRING"] = query.urlencode()


def _whole(parts: list[tuple[str, list[str]]], wanted: Callable[[str], bool]) -> bool:
    return wanted(" ".join(part for name, values in parts for part in (name, *values)))


def _echo(request: HttpRequest, value: str) -> Echo:
    echo = Echo(value=value, token=f"echo{secrets.token_hex(12)}")
    request.reader_echoes = [*getattr(request, "reader_echoes", []), echo]
    return echo


def typed(request: HttpRequest, value: str) -> str:
    """What the reader typed where the view reads `value` (a token, or text)."""
    for echo in getattr(request, "reader_echoes", ()):
        value = value.replace(echo.token, echo.value)
    return value


def restored(request: HttpRequest, body: str, *, markup: bool = True) -> str:
    """`body` with every echo of `request` shown as the reader typed it."""
    for echo in getattr(request, "reader_echoes", ()):
        body = echo.restored(body, markup=markup)
    return body


def restored_response(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """`response` with every echo of `request` shown as typed, once it has been
    read: in its redirect's target and in a text body (HTML and XML escaped, JSON
    as a JSON string)."""
    if not getattr(request, "reader_echoes", None):
        return response
    if response.has_header("Location"):
        response["Location"] = restored(request, response["Location"], markup=False)
    content_type = response.get("Content-Type", "")
    if response.streaming or not any(kind in content_type for kind in _TEXT_TYPES):
        return response
    charset = response.charset or "utf-8"
    markup = "json" not in content_type
    body = restored(request, response.content.decode(charset), markup=markup)
    response.content = body.encode(charset)
    if response.has_header("Content-Length"):
        response["Content-Length"] = str(len(response.content))
    return response
