"""How much one agency document may hold, checked before it is parsed: its bytes
and its elements (XML elements, JSON values), read by a counter that keeps no
tree, so a 4 MB document of 500,000 elements costs a scan, not a parse of
hundreds of MB, and never reaches an editor's request."""

import re
from io import BytesIO

from django.conf import settings
from django.utils.translation import gettext as _
from lxml import etree

from .item import WireFormatError

# JSON strings (escapes included), taken out before structure is counted: a
# bracket or comma inside a headline is no element.
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_SEPARATORS = re.compile(rb"[\[{,]")
# An HTML element's start inside a story's body (ninjs carries it as a string).
HTML_TAG = re.compile(r"<[A-Za-z]")


def bounds_check(data: bytes) -> None:
    """WireFormatError, with the reason, when the document is over its bounds."""
    limit = settings.WIRE_ITEM_MAX_BYTES
    if len(data) > limit:
        raise WireFormatError(
            _("The document is %(size)s bytes; the limit is %(limit)s.")
            % {"size": f"{len(data):,}", "limit": f"{limit:,}"}
        )
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"<":
        count = _xml_elements(data)
    elif head in (b"{", b"["):
        count = _json_values(data)
    else:
        return
    elements_check(count)


def elements_check(count: int) -> None:
    most = settings.WIRE_ITEM_MAX_ELEMENTS
    if count > most:
        raise WireFormatError(
            _("The document holds more than %(most)s elements; it is not read.")
            % {"most": f"{most:,}"}
        )


def _xml_elements(data: bytes) -> int:
    """Elements counted as they stream past, each dropped once counted; stops
    one past the bound. Malformed XML is left for the parser to describe."""
    most = settings.WIRE_ITEM_MAX_ELEMENTS
    count = 0
    events = etree.iterparse(
        BytesIO(data),
        events=("end",),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
    )
    try:
        for _event, element in events:
            count += 1
            if count > most:
                break
            element.clear(keep_tail=False)
    except etree.XMLSyntaxError:
        pass
    return count


def _json_values(data: bytes) -> int:
    """Objects, arrays and the values they separate (a close upper count)."""
    structure = _JSON_STRING.sub(b'""', data)
    return len(_JSON_SEPARATORS.findall(structure)) + 1
