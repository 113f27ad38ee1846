"""Agency files → WireItems: NewsML-G2 (XML) and ninjs 2.x/3.x (JSON), told apart
by what the file is, never by its name."""

import json

from .bounds import HTML_TAG, bounds_check, elements_check
from .common import MAX_ITEMS_PER_FILE
from .item import Picture, Subject, WireFormatError, WireItem
from .newsml import is_newsml, parse_newsml, read_xml
from .ninjs import parse_ninjs

__all__ = ["Picture", "Subject", "WireFormatError", "WireItem", "parse_wire"]


def parse_wire(data: bytes) -> list[WireItem]:
    """Every story in one agency file, or WireFormatError saying why none can."""
    bounds_check(data)
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"<":
        root = read_xml(data)
        if not is_newsml(root):
            raise WireFormatError(
                "The XML file is not NewsML-G2 (its root element is not in the "
                "IPTC namespace)."
            )
        items = parse_newsml(root)
    elif head in (b"{", b"["):
        try:
            document = json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise WireFormatError(f"The JSON is not valid: {exc}") from None
        except RecursionError:
            raise WireFormatError("The JSON is nested too deeply to read.") from None
        documents = document if isinstance(document, list) else [document]
        items = [item for doc in documents for item in parse_ninjs(doc)]
    else:
        raise WireFormatError("The file is neither NewsML-G2 (XML) nor ninjs (JSON).")
    if len(items) > MAX_ITEMS_PER_FILE:
        raise WireFormatError(f"The file holds more than {MAX_ITEMS_PER_FILE} items.")
    for item in items:
        # A body's HTML, a string to the JSON counter, is what the importer parses.
        elements_check(len(HTML_TAG.findall(item.body_html)))
        if not item.is_kill and not item.headline:
            raise WireFormatError(f"The item {item.guid[:80]} has no headline.")
    return items
