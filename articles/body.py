"""The article body: the editor's allow-listed HTML, sanitized with nh3, in blocks.

Editors write in a rich-text editor; imports and older rows may bring HTML or plain
text. Whatever arrives is cleaned to what the editor can make before it is stored and
again before it is shown, so nothing unsafe reaches a page.
"""

import html
import re
from functools import cache
from html.parser import HTMLParser

import nh3
from django_prose_editor.config import allowlist_from_extensions

from core.text import cut_at_word

# What editors can make in the body: the editor's toolbar and the sanitizer's
# allow-list both come from this one configuration (django-prose-editor derives the
# allowed tags and attributes from the extensions), so the editor cannot produce
# what the sanitizer would drop. `TextDirection` (dir/lang on blocks), `StoryEmbed`
# (a post or a library image placed in the body) and `ToolbarLabels` (translated
# button names) are ours; their JavaScript and allowed markup are registered in
# DJANGO_PROSE_EDITOR_EXTENSIONS.
BODY_EXTENSIONS = {
    "Paragraph": True,
    "Heading": {"levels": [2, 3]},
    "Bold": True,
    "Italic": True,
    "Link": {"enableTarget": False, "protocols": ["http", "https", "mailto"]},
    "Blockquote": True,
    "BulletList": True,
    "OrderedList": True,
    "ListItem": True,
    "HorizontalRule": True,
    "HardBreak": True,
    "History": True,
    "TextDirection": True,
    "StoryEmbed": True,
    "ToolbarLabels": True,
    # django-prose-editor turns the browser's spell check off unless told not to;
    # editors want it on, in each tab's language (TextDirection sets lang).
    "NoSpellCheck": False,
}
BLOCK_TAGS = {"p", "h2", "h3", "blockquote", "ul", "ol", "figure", "hr"}
LINK_REL = "noopener noreferrer nofollow"
_HAS_BLOCK_RE = re.compile(r"<\s*(p|h[2-6]|blockquote|ul|ol|div|br|figure)\b", re.I)
_DIRECTIONS = {"auto", "rtl", "ltr"}
_LANG_RE = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?")
# The key an editor's browser gives a social post placed before it is saved (see
# number_new_posts): letters, digits, "-" and "_", never text a reader could see.
_POST_KEY_RE = re.compile(r"[A-Za-z0-9_-]{1,40}")


def allowed_markup() -> tuple[set[str], dict[str, set[str]]]:
    """The tags and attributes a body may hold, as the sanitizer applies them."""
    allowed = allowlist_from_extensions(BODY_EXTENSIONS)
    attributes = {tag: set(names) for tag, names in allowed["attributes"].items()}
    # Every link gets the same rel, set by the sanitizer rather than by the editor.
    attributes["a"] -= {"rel", "target"}
    return set(allowed["tags"]), attributes


@cache
def _cleaner() -> nh3.Cleaner:
    tags, attributes = allowed_markup()
    schemes = allowlist_from_extensions(BODY_EXTENSIONS)["url_schemes"]
    return nh3.Cleaner(
        tags=tags,
        attributes=attributes,
        attribute_filter=_attribute_value,
        url_schemes=schemes,
        link_rel=LINK_REL,
        strip_comments=True,
    )


def sanitize_html(text: str) -> str:
    """Keep only what the body editor can make; plain text becomes paragraphs."""
    if not text:
        return ""
    if not _HAS_BLOCK_RE.search(text):
        text = paragraphs_to_html(text)
    return _cleaner().clean(text).strip()


def _attribute_value(tag: str, attribute: str, value: str) -> str | None:
    """Attribute values the page relies on: a direction, a language code, the number
    of a stored post or image. Anything else is dropped."""
    if attribute == "dir":
        return value if value in _DIRECTIONS else None
    if attribute == "lang":
        return value if _LANG_RE.fullmatch(value) else None
    if attribute in ("data-post", "data-image"):
        return value if value.isdigit() and len(value) < 12 else None
    if attribute == "data-post-key":
        return value if _POST_KEY_RE.fullmatch(value) else None
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
        if self._depth == 0 and tag == "hr":
            self._flush()
            self.blocks.append("<hr>")
            return
        if self._depth == 0 and tag in BLOCK_TAGS:
            self._flush()
        if (tag in BLOCK_TAGS or self._depth) and tag not in ("br", "hr"):
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
_LTR_WORD = r"(?:[A-Za-z0-9@#][A-Za-z0-9@#_.,:/%?=+\-]*[A-Za-z0-9_/]|[A-Za-z0-9])"
# Words joined by single spaces form one run: "John Smith" isolated word by word
# would read "Smith John" in a right-to-left line.
_LTR_RUN_RE = re.compile(
    r"(?P<entity>&#?\w+;)" rf"|(?P<run>{_LTR_WORD}(?: {_LTR_WORD})*)"
)
_TAG_RE = re.compile(r"(<[^>]*>)")


def lead_text(clean_html: str, limit: int = 200) -> str:
    """The body's first paragraph as plain text, cut at a word boundary: what a story
    without a summary says of itself (meta description, social cards, feeds)."""
    for block in split_blocks(clean_html or ""):
        if not block.startswith("<p") or embed_reference(block):
            continue
        text = html.unescape(_TAG_RE.sub(" ", block))
        if text.strip():
            return cut_at_word(text, limit)
    return ""


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


# A placed post or image as the sanitizer leaves it: <figure data-post="12"></figure>.
_EMBED_RE = re.compile(r'<figure\b[^>]*?\bdata-(?P<kind>post|image)="(?P<id>\d{1,11})"')


def embed_reference(block: str) -> tuple[str, int] | None:
    """("post", 12) or ("image", 7) when a body block places a post or an image."""
    if not block.startswith("<figure"):
        return None
    match = _EMBED_RE.match(block)
    return (match["kind"], int(match["id"])) if match else None


def embedded_ids(body: str, kind: str) -> list[int]:
    """The posts (kind "post") or images ("image") a body places, in order."""
    return [
        int(match["id"])
        for match in _EMBED_RE.finditer(body or "")
        if match["kind"] == kind
    ]


# A post placed before it was saved, as the sanitizer leaves it: the key its row in
# the form was given, <figure data-post-key="k1"></figure>.
_NEW_POST_RE = re.compile(r'<figure data-post-key="(?P<key>[A-Za-z0-9_-]{1,40})">')


def new_post_keys(body: str) -> list[str]:
    """The keys of posts a body places before they were saved, in order."""
    return [match["key"] for match in _NEW_POST_RE.finditer(body or "")]


def number_new_posts(body: str, numbers: dict[str, int]) -> str:
    """The body with each post placed by a key (`numbers`' keys) now placed by its
    number; a key not in `numbers` stays as it is."""

    def numbered(match: re.Match) -> str:
        number = numbers.get(match["key"])
        return match[0] if number is None else f'<figure data-post="{int(number)}">'

    return _NEW_POST_RE.sub(numbered, body or "")


def place_embeds(body: str, placements: list[tuple[int, str, int]]) -> str:
    """The body with each (after block N, kind, id) placed: 0 is before the first
    block, a number past the end places it last."""
    blocks = split_blocks(sanitize_html(body or ""))
    after: dict[int, list[str]] = {}
    for number, kind, pk in placements:
        figure = f'<figure data-{kind}="{int(pk)}"></figure>'
        after.setdefault(min(max(number, 0), len(blocks)), []).append(figure)
    pieces = after.get(0, [])
    for number, block in enumerate(blocks, start=1):
        pieces += [block, *after.get(number, [])]
    return "".join(pieces)
