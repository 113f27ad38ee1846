"""What a reader typed, shown back to them, read past by the output check.

A search page repeats its query (the title, the search box, the links to the next
page). Were the output check to read that echo, a search for a protected person's
legal name would be withheld where a search for any other name is answered: an
oracle telling who is protected. Nor may the check skip the page, which shows our
content beside the echo.

So the page is rendered with a token in place of each echo, the check reads it
like any page, and only then are the tokens replaced by what the reader typed,
escaped for where each stands (`OutputCheckMiddleware`). The tokens are letters
and digits, which no escaping changes and no protected spelling holds (they are
random, made afresh for each request).
"""

import secrets
from dataclasses import dataclass

from django.http import HttpRequest, QueryDict
from django.utils.html import escape


@dataclass(frozen=True)
class Echo:
    """One value the reader sent, and the tokens standing for it while the page is
    read: `text` in HTML text and attributes, `url` in a link's query string."""

    value: str
    text: str
    url: str

    def __str__(self) -> str:
        return self.text

    def __bool__(self) -> bool:
        return bool(self.value)

    def restored(self, body: str) -> str:
        """`body` with the tokens replaced by the value, escaped for each place."""
        encoded = QueryDict(mutable=True)
        encoded["v"] = self.value
        url = escape(encoded.urlencode().removeprefix("v="))
        return body.replace(self.text, escape(self.value)).replace(self.url, url)


def reader_echo(request: HttpRequest, parameter: str, value: str) -> Echo:
    """An echo of `value`, sent as query `parameter`: the page shows the Echo (its
    token) and the query strings the page builds from `request.GET` hold the URL
    token, until the output check has read the page."""
    if not value:
        return Echo(value="", text="", url="")
    nonce = secrets.token_hex(12)
    echo = Echo(value=value, text=f"echo{nonce}t", url=f"echo{nonce}u")
    query = request.GET.copy()
    query[parameter] = echo.url
    request.GET = query
    request.reader_echoes = [*getattr(request, "reader_echoes", []), echo]
    return echo


def restored(request: HttpRequest, body: str) -> str:
    """`body` with every echo of `request` shown as the reader typed it."""
    for echo in getattr(request, "reader_echoes", ()):
        body = echo.restored(body)
    return body
