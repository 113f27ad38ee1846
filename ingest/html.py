"""Reading pasted HTML with lxml's tree parser, never with a hand-written state machine.

Nothing here produces HTML for a page: pasted markup is read for its text, its safe
http(s) links and the attributes embeds carry; scripts, styles, event handlers and
javascript:/data: links are dropped and reported.

Every step is linear in the input and bounded in nesting: libxml2 stops descending
at 255 levels, the tree is walked with lxml's iterative `iterwalk` (no recursion),
and the only pattern, the tag scanner of `html_region_end`, never looks past the
next "<" or ">".
"""

import re
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from articles import platforms
from core.text import safe_url

from .budget import check_budget

VOID_TAGS = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
    "param", "source", "track", "wbr",
}  # fmt: skip
BLOCK_TAGS = {
    "p", "div", "section", "blockquote", "li", "h1", "h2", "h3", "h4", "h5", "h6",
    "figcaption", "tr", "article",
}  # fmt: skip
SKIPPED_TAGS = {"script", "style", "noscript", "template", "svg", "object", "title"}
URL_ATTRIBUTES = {"href", "src", "cite", "data-href", "poster", "action"} | set(
    platforms.permalink_attributes()
)
_INVISIBLE_RE = re.compile(r"[\x00-\x20\x7f]+")
# What libxml2 refuses to hold in a tree: controls, lone surrogates, non-characters.
_NOT_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SPACES_RE = re.compile(r"[ \t\u00a0]+")
_BLANK_LINES_RE = re.compile(r"\n{2,}")


def is_dangerous_url(value: str) -> bool:
    compact = _INVISIBLE_RE.sub("", value or "").lower()
    return compact.startswith(("javascript:", "vbscript:", "data:"))


@dataclass
class Element:
    """One top-level element of pasted HTML and everything read inside it."""

    tag: str
    attrs: dict[str, str]
    line: int
    text_parts: list[str] = field(default_factory=list)
    first_paragraph: str | None = None
    after_first_paragraph: list[str] = field(default_factory=list)
    anchors: list[tuple[str, str]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    times: list[str] = field(default_factory=list)
    scripts: list[dict[str, str]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    language: str = ""

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def text(self) -> str:
        return tidy("".join(self.text_parts))


def tidy(text: str) -> str:
    """Collapse runs of spaces and blank lines left by markup."""
    lines = [_SPACES_RE.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES_RE.sub("\n", "\n".join(lines)).strip()


def parse_fragment(markup: str) -> etree._Element:
    """Markup as the children of one <div>; broken markup is repaired, never refused."""
    markup = _NOT_XML_RE.sub("", markup)
    if not markup.strip():
        return lxml.html.Element("div")
    try:
        return lxml.html.fragment_fromstring(markup, create_parent="div")
    except (etree.ParserError, ValueError):
        # Only for input libxml2 cannot read at all: keep its text.
        root = lxml.html.Element("div")
        root.text = re.sub(r"<[^<>]*>", " ", markup)
        return root


def read_elements(markup: str) -> list[Element]:
    """The top-level elements (and loose text) of pasted markup, each read through."""
    root = parse_fragment(markup)
    elements: list[Element] = []
    if root.text and root.text.strip():
        elements.append(Element("#text", {}, 1, text_parts=[root.text]))
    for child in root:
        if isinstance(child.tag, str):
            elements.append(_read(child))
        if child.tail and child.tail.strip():
            line = (child.sourceline or 1) + child.tail.count("\n", 0, 1)
            elements.append(Element("#text", {}, line, text_parts=[child.tail]))
    return elements


def _attrs(node: etree._Element) -> dict[str, str]:
    return {str(k).lower(): v or "" for k, v in node.attrib.items()}


def _read(top: etree._Element) -> Element:
    element = Element(top.tag, _attrs(top), top.sourceline or 1)
    skipping = 0
    paragraph: etree._Element | None = None
    paragraph_parts: list[str] = []
    anchors: dict[etree._Element, list[str]] = {}

    def text(data: str | None) -> None:
        if not data or skipping:
            return
        element.text_parts.append(data)
        if paragraph is not None:
            paragraph_parts.append(data)
        elif element.first_paragraph is not None:
            element.after_first_paragraph.append(data)
        for parts in anchors.values():
            parts.append(data)

    for event, node in etree.iterwalk(top, events=("start", "end")):
        tag = node.tag if isinstance(node.tag, str) else ""
        if event == "start":
            if tag:
                _read_attributes(element, node, tag)
            if tag in SKIPPED_TAGS or not tag:
                skipping += 1
                continue
            if tag == "a":
                anchors[node] = []
            elif tag == "p" and element.first_paragraph is None and paragraph is None:
                paragraph = node
                element.language = element.language or node.get("lang", "")
            elif tag == "br":
                text("\n")
            text(node.text)
        else:
            if tag in SKIPPED_TAGS or not tag:
                skipping -= 1
            else:
                if tag == "a" and node in anchors:
                    href = safe_url(node.get("href", ""))
                    element.anchors.append((href, "".join(anchors.pop(node)).strip()))
                if node is paragraph:
                    element.first_paragraph = tidy("".join(paragraph_parts))
                    paragraph = None
                if tag in BLOCK_TAGS:
                    text("\n")
            if node is not top:
                text(node.tail)
    return element


def _read_attributes(element: Element, node: etree._Element, tag: str) -> None:
    values = _attrs(node)
    for name, value in values.items():
        if name.startswith("on"):
            element.removed.append(f"{name}=")
        elif name in URL_ATTRIBUTES:
            url = safe_url(value)
            if url:
                element.urls.append(url)
            elif is_dangerous_url(value):
                element.removed.append(value.strip().split(":", 1)[0].lower() + ":")
    if tag == "script":
        element.scripts.append(values)
    elif tag == "time" and values.get("datetime"):
        element.times.append(values["datetime"])


def markup_to_text(markup: str) -> str:
    """The visible text of an inline HTML fragment; scripts and styles are dropped."""
    return tidy("".join("".join(e.text_parts) for e in read_elements(markup)))


# ------------------------------------------------------------ where embed code ends

# A tag, from "<" to the next ">", never across another "<": each attempt stops at
# the next angle bracket, so scanning is linear however the markup is broken.
_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)([^<>]*)>")
_RAW_TEXT = ("script", "style")


# Embed code is a few lines; a region still open after this many is not going to
# close as embed code does. Read in windows growing to this size, so finding the end
# of each of thousands of embeds costs its own length, not the rest of the paste's.
MAX_REGION_LINES = 4096
_FIRST_WINDOW = 16


def html_region_end(lines: list[str], start: int) -> tuple[int, bool]:
    """Index just past the embed code starting at lines[start], and if it closed.

    The region ends at the end of the line where every element opened since `start`
    is closed. Code that never closes (within MAX_REGION_LINES) runs to the first
    blank line instead, so the rest of the story is not lost.
    """
    size = _FIRST_WINDOW
    while True:
        end = min(len(lines), start + size)
        closed = _closing_line(lines[start:end], complete=end == len(lines))
        if closed is not None:
            return start + closed + 1, True
        if end == len(lines) or size >= MAX_REGION_LINES:
            break
        size *= 4
    for index in range(start, len(lines)):
        if not lines[index].strip():
            return index, False
    return len(lines), False


def _closing_line(window: list[str], *, complete: bool) -> int | None:
    """The line of `window` that closes the region, or None when it does not close
    within it (`complete`: the window runs to the end of the paste)."""
    offsets, position = [], 0
    for line in window:
        offsets.append(position)
        position += len(line) + 1
    text = "\n".join(window)
    depth, pos, close_line = 0, 0, None
    last_line = len(window) - 1
    while True:
        check_budget()
        match = _TAG_RE.search(text, pos)
        if match is None:
            # A tag may begin on the window's last line and end past it.
            if close_line is not None and (complete or close_line < last_line):
                return close_line
            return None
        if close_line is not None and _line_at(offsets, match.start()) != close_line:
            return close_line
        close_line = None
        closing, tag, rest = match[1], match[2].lower(), match[3]
        pos = match.end()
        if closing:
            depth = max(0, depth - 1)
        elif tag not in VOID_TAGS and not rest.rstrip().endswith("/"):
            if tag in _RAW_TEXT:
                end = text.lower().find(f"</{tag}", pos)
                if end == -1:
                    return None
                pos = end
            depth += 1
        if depth == 0:
            close_line = _line_at(offsets, match.end() - 1)


def _line_at(offsets: list[int], position: int) -> int:
    """Index of the line holding `position` (binary search over line offsets)."""
    low, high = 0, len(offsets) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if offsets[middle] <= position:
            low = middle
        else:
            high = middle - 1
    return low


# ------------------------------------------------------------ whole pages

_PAGE_DROPPED = SKIPPED_TAGS | {"nav", "header", "footer", "aside", "form", "button"}
_PAGE_RE = re.compile(
    r"\s*<(!doctype|html|head|body|article|main|h1|p|title|meta)\b", re.I
)


def looks_like_page(text: str) -> bool:
    """True for an uploaded .html page or a pasted HTML fragment of a whole story."""
    return bool(_PAGE_RE.match(text))


def _is_embed(node: etree._Element) -> bool:
    if node.tag == "iframe":
        return True
    classes = set((node.get("class") or "").split())
    return node.tag in ("blockquote", "div") and bool(
        classes & platforms.embed_classes()
    )


def page_to_text(markup: str) -> str:
    """The headline, paragraphs and embed codes of an HTML page, one block each."""
    markup = _NOT_XML_RE.sub("", markup)
    try:
        root = lxml.html.document_fromstring(markup)
    except (etree.ParserError, ValueError):
        root = parse_fragment(markup)
    title = root.find(".//title")
    title_text = tidy(title.text_content()) if title is not None else ""
    body = root.find("body")
    headline, blocks, buffer = "", [], []
    in_h1: etree._Element | None = None
    dropped = 0

    def flush() -> None:
        text = tidy("".join(buffer))
        if text:
            blocks.append(text)
        buffer.clear()

    walker = etree.iterwalk(body if body is not None else root, events=("start", "end"))
    for event, node in walker:
        tag = node.tag if isinstance(node.tag, str) else ""
        if event == "start":
            if not tag or tag in _PAGE_DROPPED:
                dropped += 1
                continue
            if not dropped and _is_embed(node):
                flush()
                code = etree.tostring(node, encoding="unicode", with_tail=False)
                blocks.append(code.replace("\n", " "))
                walker.skip_subtree()  # its "end" still comes, and adds the tail
                continue
            if tag == "h1" and not headline and in_h1 is None:
                flush()
                in_h1 = node
            elif tag in BLOCK_TAGS:
                flush()
            elif tag == "br":
                buffer.append("\n")
            if not dropped and node.text:
                buffer.append(node.text)
        else:
            if not tag or tag in _PAGE_DROPPED:
                dropped -= 1
            elif node is in_h1:
                headline = tidy("".join(buffer)).replace("\n", " ")
                buffer.clear()
                in_h1 = None
            elif tag in BLOCK_TAGS:
                flush()
            if not dropped and node.tail:
                buffer.append(node.tail)
    flush()
    headline = headline or title_text.replace("\n", " ")
    if not headline and blocks:
        headline, blocks = blocks[0].split("\n")[0], blocks[1:]
    return "\n\n".join([headline, *blocks])
