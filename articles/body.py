"""The article body: allow-listed HTML, sanitized with nh3, split into blocks.

Editors type or paste HTML or plain text. Whatever arrives is cleaned to a small set of
tags before it is stored and again before it is shown, so nothing unsafe reaches a page.
"""

import html
import re
from html.parser import HTMLParser

import nh3

from newsroom.text import safe_url

ALLOWED_TAGS = {
    "p", "h2", "h3", "h4", "blockquote", "ul", "ol", "li",
    "a", "strong", "b", "em", "i", "u", "br", "bdi", "span", "sub", "sup", "q", "cite",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "p": {"dir", "lang"},
    "blockquote": {"dir", "lang", "cite"},
    "span": {"dir", "lang"},
    "bdi": {"dir"},
    "q": {"cite"},
}
BLOCK_TAGS = {"p", "h2", "h3", "h4", "blockquote", "ul", "ol"}
_HAS_BLOCK_RE = re.compile(r"<\s*(p|h[2-4]|blockquote|ul|ol|div|br)\b", re.IGNORECASE)


def sanitize_html(text: str) -> str:
    """Keep only allow-listed tags and attributes; plain text becomes paragraphs."""
    if not text:
        return ""
    if not _HAS_BLOCK_RE.search(text):
        text = paragraphs_to_html(text)
    return nh3.clean(
        text,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        attribute_filter=_only_safe_citations,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    ).strip()


def _only_safe_citations(tag: str, attribute: str, value: str) -> str | None:
    """nh3 checks the scheme of links, not of `cite`: keep a citation only when it
    is an http(s) address, so no javascript: survives even where browsers ignore it."""
    if attribute == "cite":
        return safe_url(value) or None
    return value


def paragraphs_to_html(text: str) -> str:
    """Plain text with blank lines between paragraphs, as escaped <p> elements."""
    paragraphs = re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip())
    return "".join(
        "<p>{}</p>".format(html.escape(p.strip()).replace("\n", "<br>"))
        for p in paragraphs
        if p.strip()
    )


class _BlockSplitter(HTMLParser):
    """Cuts sanitized HTML into its top-level elements, keeping their markup."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.blocks: list[str] = []
        self._current: list[str] = []
        self._depth = 0

    def _flush(self) -> None:
        chunk = "".join(self._current).strip()
        if chunk:
            self.blocks.append(chunk if chunk.startswith("<") else f"<p>{chunk}</p>")
        self._current = []

    def handle_starttag(self, tag, attrs):
        if self._depth == 0 and tag == "br":
            self._flush()  # a line break between loose runs of text ends a paragraph
            return
        if self._depth == 0 and tag in BLOCK_TAGS:
            self._flush()
        if (tag in BLOCK_TAGS or self._depth) and tag != "br":
            self._depth += 1
        self._current.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        self._current.append(f"</{tag}>")
        if self._depth:
            self._depth -= 1
            if self._depth == 0:
                self._flush()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        self._current.append(data)

    def handle_entityref(self, name):
        self._current.append(f"&{name};")

    def handle_charref(self, name):
        self._current.append(f"&#{name};")


def split_blocks(clean_html: str) -> list[str]:
    """The top-level blocks (paragraphs, headings, lists, quotes) of sanitized HTML."""
    splitter = _BlockSplitter()
    splitter.feed(clean_html)
    splitter.close()
    splitter._flush()
    return splitter.blocks


# A run of Latin letters, digits and the punctuation inside handles, URLs and numbers
# ("@aawsat_News", "24.ae", "https://t.co/x", "2,500"); entities are matched first so
# "&amp;" is never cut.
_LTR_RUN_RE = re.compile(
    r"(?P<entity>&#?\w+;)"
    r"|(?P<run>[A-Za-z0-9@#][A-Za-z0-9@#_.,:/%?=+\-]*[A-Za-z0-9_/]|[A-Za-z0-9])"
)
_TAG_RE = re.compile(r"(<[^>]*>)")


def isolate_ltr_runs(clean_html: str) -> str:
    """Wrap Latin and numeric runs of right-to-left text in <bdi>.

    Without isolation the bidi algorithm can scramble a line where a handle, a URL or
    a number sits next to Arabic punctuation. Expects sanitized HTML: tags are kept
    as they are and only text between them is touched.
    """
    pieces = _TAG_RE.split(clean_html)
    inside_bdi = 0
    for index, piece in enumerate(pieces):
        if index % 2:  # a tag
            if piece.startswith("<bdi"):
                inside_bdi += 1
            elif piece.startswith("</bdi"):
                inside_bdi = max(0, inside_bdi - 1)
            continue
        if not inside_bdi:
            pieces[index] = _LTR_RUN_RE.sub(_wrap_run, piece)
    return "".join(pieces)


def _wrap_run(match: re.Match) -> str:
    if match.lastgroup == "entity":
        return match.group(0)
    return f"<bdi>{match.group(0)}</bdi>"
