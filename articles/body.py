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
from lxml import etree
from lxml import html as lxml_html

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


# What the body editor (ProseMirror) does to any HTML it loads, observed in
# Chromium: blocks without a direction get dir="auto", the text of list items and
# quotes sits in paragraphs, ordered lists say their numbering, runs of spaces and
# line breaks in text become one space and none is kept at a block's edges, loose
# text becomes a paragraph, and attributes come in alphabetical order.
_DIRECTED = {"p", "h2", "h3", "blockquote", "li"}
_TEXT_BLOCKS = {"p", "h2", "h3"}
_IN_PARAGRAPHS = {"li", "blockquote"}
_SPACES_RE = re.compile(r"[ \t\n\r\f]+")
# An ordered list's numbering as the editor names it, from the list's `type`.
_NUMBERING = {
    "a": "lower-alpha",
    "A": "upper-alpha",
    "i": "lower-roman",
    "I": "upper-roman",
}
_INLINE_TAGS = ("strong", "em", "a")


def canonical_blocks(text: str) -> list[str]:
    """The body's top-level blocks as the body editor sends them back.

    A body written outside the editor (an import, the demo, a migration) and the
    same body after an editor opened and saved it differ in markup only; in this
    form they are equal, so comparing two versions of a body (the merge of
    concurrent edits) sees only what someone changed.
    """
    clean = sanitize_html(text or "")
    if not clean:
        return []
    root = lxml_html.fragment_fromstring(clean, create_parent="div")
    blocks: list[str] = []
    loose = _paragraph()
    for node in _top_level_nodes(root):
        if isinstance(node, str) or node.tag not in BLOCK_TAGS:
            _append(loose, node)
            continue
        if _has_content(loose):
            blocks.append(_canonical_block(loose))
        loose = _paragraph()
        blocks.append(_canonical_block(node))
    if _has_content(loose):
        blocks.append(_canonical_block(loose))
    return blocks


def canonical_body(text: str) -> str:
    """The body as the body editor sends it back (see canonical_blocks)."""
    return "".join(canonical_blocks(text))


def _paragraph() -> etree._Element:
    return etree.Element("p")


def _top_level_nodes(root: etree._Element) -> list:
    """The children of `root` with the text between them, in order."""
    nodes: list = [root.text] if root.text else []
    for child in root:
        tail, child.tail = child.tail, None
        nodes.append(child)
        if tail:
            nodes.append(tail)
    return nodes


def _append(parent: etree._Element, node) -> None:
    """Append an element or a piece of text to `parent`."""
    if not isinstance(node, str):
        parent.append(node)
    elif len(parent):
        parent[-1].tail = (parent[-1].tail or "") + node
    else:
        parent.text = (parent.text or "") + node


def _has_content(element: etree._Element) -> bool:
    return bool(len(element) or (element.text or "").strip())


def _canonical_block(block: etree._Element) -> str:
    for element in list(block.iter(*_IN_PARAGRAPHS)):
        _wrap_inline_runs(element)
    for element in block.iter(etree.Element):
        if element.tag in _DIRECTED and element.get("dir") not in _DIRECTIONS:
            element.set("dir", "auto")
        if element.tag == "ol" and not element.get("data-type"):
            element.set("data-type", _NUMBERING.get(element.get("type"), "decimal"))
    for element in list(block.iter(*_INLINE_TAGS)):
        if not len(element) and not element.text:
            element.drop_tag()  # an empty bold or link: the editor keeps nothing
    for element in block.iter(etree.Element):
        if element.tag in _TEXT_BLOCKS:
            _collapse_spaces(element)
        attributes = sorted(element.attrib.items())
        element.attrib.clear()
        for name, value in attributes:
            element.set(name, value)
    # Serialized by the sanitizer, as every stored body is: one spelling of entities.
    return _cleaner().clean(lxml_html.tostring(block, encoding="unicode"))


def _wrap_inline_runs(element: etree._Element) -> None:
    """Put the loose text and inline elements of a list item or quote in paragraphs."""
    nodes = _top_level_nodes(element)
    element.text = None
    for child in list(element):
        element.remove(child)
    run = _paragraph()
    for node in nodes:
        if isinstance(node, str) or node.tag not in BLOCK_TAGS:
            _append(run, node)
            continue
        if _has_content(run):
            element.append(run)
        run = _paragraph()
        element.append(node)
    if _has_content(run):
        element.append(run)


def _collapse_spaces(block: etree._Element) -> None:
    """One space for each run of white space in a text block, none at its edges."""
    slots: list[tuple[etree._Element, str]] = []
    _text_slots(block, slots)
    previous_space = True  # nothing is kept at the start of the block
    for element, slot in slots:
        if element.tag == "br" and slot == "tail":
            previous_space = True  # nor at the start of a line
        value = _SPACES_RE.sub(" ", getattr(element, slot) or "")
        if previous_space:
            value = value.lstrip(" ")
        if value:
            previous_space = value.endswith(" ")
        setattr(element, slot, value or None)
    for element, slot in reversed(slots):
        value = getattr(element, slot)
        if value:
            setattr(element, slot, value.rstrip(" ") or None)
            if value.strip(" "):
                break


def _text_slots(element: etree._Element, slots: list) -> None:
    """Where text sits inside `element`, as (element, "text" or "tail"), in order."""
    slots.append((element, "text"))
    for child in element:
        _text_slots(child, slots)
        slots.append((child, "tail"))


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
