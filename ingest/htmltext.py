"""Reading pasted HTML with the standard library's parser, never by regex alone.

Nothing here produces HTML for a page: pasted markup is read for its text, its safe
http(s) links and the attributes embeds carry; scripts, styles, event handlers and
javascript:/data: links are dropped and reported.
"""

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from newsroom.text import safe_url

VOID_TAGS = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
    "param", "source", "track", "wbr",
}  # fmt: skip
BLOCK_TAGS = {
    "p", "div", "section", "blockquote", "li", "h1", "h2", "h3", "h4", "h5", "h6",
    "figcaption", "tr", "article",
}  # fmt: skip
SKIPPED_TAGS = {"script", "style", "noscript", "template", "svg", "object"}
URL_ATTRIBUTES = {
    "href",
    "src",
    "cite",
    "data-href",
    "data-instgrm-permalink",
    "poster",
}
# Widget loaders every embed code ships with; dropping them is expected, not news.
KNOWN_WIDGETS = (
    "platform.twitter.com/widgets.js",
    "instagram.com/embed.js",
    "tiktok.com/embed.js",
    "connect.facebook.net/",
    "telegram.org/js/telegram-widget.js",
)
_INVISIBLE_RE = re.compile(r"[\x00-\x20\x7f]+")


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
    closed: bool = False

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def text(self) -> str:
        return tidy("".join(self.text_parts))


def tidy(text: str) -> str:
    """Collapse runs of spaces and blank lines left by markup."""
    lines = [re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in text.split("\n")]
    return re.sub(r"\n{2,}", "\n", "\n".join(lines)).strip()


class ElementReader(HTMLParser):
    """Splits a chunk of HTML into its top-level elements and reads each one."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._depth = 0
        self._skipping = 0
        self._in_paragraph = False
        self._paragraph: list[str] = []
        self._anchor: list | None = None

    @property
    def _current(self) -> Element:
        return self.elements[-1]

    def handle_starttag(self, tag, attrs):
        values = {name.lower(): value or "" for name, value in attrs}
        if self._depth == 0:
            self.elements.append(Element(tag, values, self.getpos()[0]))
        element = self._current
        for name, value in values.items():
            if name.startswith("on"):
                element.removed.append(f"{name}=")
            elif name in URL_ATTRIBUTES or name == "action":
                url = safe_url(value)
                if url:
                    element.urls.append(url)
                elif is_dangerous_url(value):
                    element.removed.append(value.strip().split(":", 1)[0].lower() + ":")
        if tag == "script":
            element.scripts.append(values)
        if tag in SKIPPED_TAGS:
            self._skipping += 1
        elif tag == "a":
            self._anchor = [safe_url(values.get("href", "")) or "", []]
        elif tag == "p" and element.first_paragraph is None and not self._in_paragraph:
            self._in_paragraph = True
            self._paragraph = []
            element.language = element.language or values.get("lang", "")
        elif tag == "br":
            self._text("\n")
        elif tag == "time" and values.get("datetime"):
            element.times.append(values["datetime"])
        if tag not in VOID_TAGS:
            self._depth += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if not self.elements:
            return
        if tag in SKIPPED_TAGS and self._skipping:
            self._skipping -= 1
        elif tag == "a" and self._anchor is not None:
            href, text = self._anchor
            self._current.anchors.append((href, "".join(text).strip()))
            self._anchor = None
        elif tag == "p" and self._in_paragraph:
            self._current.first_paragraph = tidy("".join(self._paragraph))
            self._in_paragraph = False
        if tag in BLOCK_TAGS:
            self._text("\n")
        if self._depth:
            self._depth -= 1
            if self._depth == 0:
                self._current.closed = True

    def handle_data(self, data):
        if self._skipping:
            return
        if not self.elements or self._depth == 0:
            if not data.strip():
                return
            self.elements.append(Element("#text", {}, self.getpos()[0], closed=True))
        self._text(data)

    def _text(self, data: str) -> None:
        if not self.elements or self._skipping:
            return
        element = self._current
        element.text_parts.append(data)
        if self._in_paragraph:
            self._paragraph.append(data)
        elif element.first_paragraph is not None:
            element.after_first_paragraph.append(data)
        if self._anchor is not None:
            self._anchor[1].append(data)


def read_elements(markup: str) -> list[Element]:
    reader = ElementReader()
    reader.feed(markup)
    reader.close()
    return reader.elements


def markup_to_text(markup: str) -> str:
    """The visible text of an inline HTML fragment; scripts and styles are dropped."""
    return tidy("".join("".join(e.text_parts) for e in read_elements(markup)))


class _DepthCounter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.started = False

    def handle_starttag(self, tag, attrs):
        self.started = True
        if tag not in VOID_TAGS:
            self.depth += 1

    def handle_startendtag(self, tag, attrs):
        self.started = True

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1


def html_region_end(lines: list[str], start: int) -> tuple[int, bool]:
    """Index just past the embed code starting at lines[start], and if it closed.

    The region ends when every element opened since `start` is closed. Code that never
    closes runs to the first blank line instead, so the rest of the story is not lost.
    """
    counter = _DepthCounter()
    for index in range(start, len(lines)):
        counter.feed(lines[index] + "\n")
        if counter.started and counter.depth == 0 and not counter.rawdata.strip():
            return index + 1, True
    for index in range(start, len(lines)):
        if not lines[index].strip():
            return index, False
    return len(lines), False


class _PageReader(HTMLParser):
    """A whole HTML page or fragment → the plain-text shape the parser reads."""

    EMBED_CLASSES = {"twitter-tweet", "instagram-media", "tiktok-embed", "fb-post"}
    DROPPED = SKIPPED_TAGS | {
        "nav",
        "header",
        "footer",
        "aside",
        "form",
        "head",
        "button",
    }

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.headline = ""
        self.blocks: list[str] = []
        self._buffer: list[str] = []
        self._dropped = 0
        self._embed_depth = 0
        self._embed: list[str] = []
        self._in_title = False
        self._in_h1 = False

    def _flush(self) -> None:
        text = tidy("".join(self._buffer))
        if text:
            self.blocks.append(text)
        self._buffer = []

    def handle_starttag(self, tag, attrs):
        classes = set(dict(attrs).get("class", "").split()) if attrs else set()
        if self._embed_depth:
            self._embed.append(self.get_starttag_text() or "")
            if tag not in VOID_TAGS:
                self._embed_depth += 1
            return
        if (
            tag in ("blockquote", "div")
            and classes & self.EMBED_CLASSES
            or tag == "iframe"
        ):
            self._flush()
            self._embed = [self.get_starttag_text() or ""]
            self._embed_depth = 1
            return
        if tag == "title":
            self._in_title = True
        if tag in self.DROPPED and tag != "head":
            self._dropped += 1
        elif tag == "h1" and not self.headline:
            self._flush()
            self._in_h1 = True
        elif tag in BLOCK_TAGS:
            self._flush()
        elif tag == "br":
            self._buffer.append("\n")

    def handle_endtag(self, tag):
        if self._embed_depth:
            self._embed.append(f"</{tag}>")
            self._embed_depth -= 1
            if not self._embed_depth:
                self.blocks.append("".join(self._embed).replace("\n", " "))
            return
        if tag == "title":
            self._in_title = False
        if tag in self.DROPPED and tag != "head":
            self._dropped = max(0, self._dropped - 1)
        elif tag == "h1" and self._in_h1:
            self.headline = tidy("".join(self._buffer)).replace("\n", " ")
            self._buffer = []
            self._in_h1 = False
        elif tag in BLOCK_TAGS:
            self._flush()

    def handle_data(self, data):
        if self._embed_depth:
            self._embed.append(html.escape(data, quote=False))
        elif self._in_title:
            self.title += data
        elif not self._dropped:
            self._buffer.append(data)


_PAGE_RE = re.compile(
    r"\s*<(!doctype|html|head|body|article|main|h1|p|title|meta)\b", re.I
)


def looks_like_page(text: str) -> bool:
    """True for an uploaded .html page or a pasted HTML fragment of a whole story."""
    return bool(_PAGE_RE.match(text))


def page_to_text(markup: str) -> str:
    """The headline, paragraphs and embed codes of an HTML page, one block each."""
    reader = _PageReader()
    reader.feed(markup)
    reader.close()
    reader._flush()
    if reader._embed_depth:
        reader.blocks.append("".join(reader._embed).replace("\n", " "))
    headline = reader.headline or tidy(reader.title).replace("\n", " ")
    blocks = reader.blocks
    if not headline and blocks:
        headline, blocks = blocks[0].split("\n")[0], blocks[1:]
    return "\n\n".join([headline, *blocks])
