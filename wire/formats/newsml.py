"""IPTC NewsML-G2: a newsMessage, a newsItem or a packageItem → WireItems.

Read with lxml's official element names (itemMeta, contentMeta, contentSet, …) in
the NAR namespace. A packageItem's groups refer to items by their guid
(itemRef/@residref); the items must travel in the same file (a newsMessage's
itemSet). The text item is the story; the picture items it groups with become its
pictures. Nothing is fetched while reading: the parser neither expands entities
nor opens the network, and refuses trees deeper or larger than libxml2's default.
"""

from django.utils.html import escape
from lxml import etree

from .common import language_code, media_topic, one_line, urgency, version_number, when
from .item import (
    CANCELED,
    USABLE,
    WITHHELD,
    Picture,
    Subject,
    WireFormatError,
    WireItem,
)

NAR = "http://iptc.org/std/nar/2006-10-01/"
XHTML = "http://www.w3.org/1999/xhtml"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
FORMAT = "newsml-g2"


def _n(name: str) -> str:
    return f"{{{NAR}}}{name}"


def xml_parser() -> etree.XMLParser:
    """lxml set for hostile input: no entities resolved, no DTD loaded, no
    network, no huge trees; comments and processing instructions dropped."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def read_xml(data: bytes) -> etree._Element:
    try:
        return etree.fromstring(data, parser=xml_parser())
    except etree.XMLSyntaxError as exc:
        raise WireFormatError(f"The XML is not well formed: {exc}") from None


def is_newsml(root: etree._Element) -> bool:
    return isinstance(root.tag, str) and root.tag.startswith(f"{{{NAR}}}")


def parse_newsml(root: etree._Element) -> list[WireItem]:
    """The stories of a NewsML-G2 document, each with its pictures."""
    name = etree.QName(root).localname
    if name == "newsMessage":
        items = root.findall(f"{_n('itemSet')}/*")
    elif name in ("newsItem", "packageItem"):
        items = [root]
    else:
        raise WireFormatError(
            "A NewsML-G2 file holds a newsMessage, newsItem or packageItem, "
            f"not {name}."
        )
    by_guid = {item.get("guid", ""): item for item in items}
    stories: list[WireItem] = []
    grouped: set[str] = set()
    for package in (i for i in items if etree.QName(i).localname == "packageItem"):
        story = _package(package, by_guid)
        grouped |= {story.guid, *(p.guid for p in story.pictures)}
        stories.append(story)
    for item in items:
        if etree.QName(item).localname != "newsItem" or item.get("guid") in grouped:
            continue
        if _item_class(item) in ("text", ""):
            stories.append(_text_item(item))
    if not stories:
        raise WireFormatError("The NewsML-G2 file holds no text item.")
    return stories


def _item_class(item: etree._Element) -> str:
    node = item.find(f"{_n('itemMeta')}/{_n('itemClass')}")
    qcode = node.get("qcode", "") if node is not None else ""
    return qcode.rsplit(":", 1)[-1]


def _status(item: etree._Element) -> str:
    node = item.find(f"{_n('itemMeta')}/{_n('pubStatus')}")
    value = node.get("qcode", "") if node is not None else ""
    value = value.rsplit(":", 1)[-1] or USABLE
    if value not in (USABLE, WITHHELD, CANCELED):
        raise WireFormatError(f"Unknown pubStatus “{value[:30]}”.")
    return value


def _meta(item: etree._Element, name: str) -> str:
    return (item.findtext(f"{_n('itemMeta')}/{_n(name)}") or "").strip()


def _content(item: etree._Element, name: str) -> str:
    return (item.findtext(f"{_n('contentMeta')}/{_n(name)}") or "").strip()


def _description(item: etree._Element, *roles: str) -> str:
    for node in item.iterfind(f"{_n('contentMeta')}/{_n('description')}"):
        if not roles or node.get("role", "").rsplit(":", 1)[-1] in roles:
            return " ".join("".join(node.itertext()).split())
    return ""


def _text_item(item: etree._Element) -> WireItem:
    guid = item.get("guid", "").strip()
    if not guid:
        raise WireFormatError("A newsItem has no guid.")
    meta = f"{_n('contentMeta')}"
    subjects = []
    for node in item.iterfind(f"{meta}/{_n('subject')}"):
        code = media_topic(node.get("qcode", "")) or media_topic(node.get("uri", ""))
        if code:
            subjects.append(Subject(code, one_line(node.findtext(_n("name")))))
    language = item.find(f"{meta}/{_n('language')}")
    located = item.find(f"{meta}/{_n('located')}")
    creator = item.findtext(f"{meta}/{_n('creator')}/{_n('name')}")
    return WireItem(
        guid=guid[:250],
        version=version_number(item.get("version")),
        format=FORMAT,
        status=_status(item),
        headline=one_line(_content(item, "headline")),
        summary=_description(item, "summary"),
        body_html=_body(item),
        language=language_code(
            language.get("tag", "") if language is not None else item.get(XML_LANG, "")
        ),
        dateline=one_line(_content(item, "dateline")),
        place=one_line(located.findtext(_n("name")) if located is not None else ""),
        byline=one_line(_content(item, "by") or creator, 200),
        urgency=urgency(_content(item, "urgency")),
        embargo=when(_meta(item, "embargoed")),
        version_created=when(_meta(item, "versionCreated")),
        subjects=subjects,
    )


def _body(item: etree._Element) -> str:
    """The XHTML body of inlineXML (namespace dropped), or inlineData as paragraphs."""
    content = item.find(_n("contentSet"))
    if content is None:
        return ""
    inline = content.find(_n("inlineXML"))
    if inline is not None:
        body = inline.find(f".//{{{XHTML}}}body")
        nodes = list(body) if body is not None else list(inline)
        parts = []
        for node in nodes:
            etree.cleanup_namespaces(node)
            parts.append(etree.tostring(node, encoding="unicode", with_tail=False))
        return "\n".join(parts).replace(f' xmlns="{XHTML}"', "")
    data = content.findtext(_n("inlineData")) or ""
    return "\n".join(
        f"<p>{escape(' '.join(block.split()))}</p>"
        for block in data.split("\n\n")
        if block.strip()
    )


def _picture(item: etree._Element) -> Picture | None:
    """The largest remote rendition of a picture item, with caption and credit."""
    best, width = None, -1
    for node in item.iterfind(f"{_n('contentSet')}/{_n('remoteContent')}"):
        href = node.get("href", "")
        kind = node.get("contenttype", "")
        size = (
            int(node.get("width", "0") or 0) if node.get("width", "").isdigit() else 0
        )
        if href and (not kind or kind.startswith("image/")) and size > width:
            best, width = node, size
    if best is None:
        return None
    return Picture(
        href=best.get("href", "")[:500],
        caption=_description(item, "caption") or one_line(_content(item, "headline")),
        credit=one_line(_content(item, "creditline") or _content(item, "by"), 200),
        guid=item.get("guid", "")[:250],
        content_type=best.get("contenttype", ""),
    )


def _package(package: etree._Element, by_guid: dict) -> WireItem:
    """The package's text item with the pictures grouped with it; a package the
    agency cancels cancels its story."""
    refs = [
        node.get("residref", "")
        for node in package.iter(_n("itemRef"))
        if node.get("residref")
    ]
    missing = [ref for ref in refs if ref not in by_guid]
    if missing:
        raise WireFormatError(
            "The packageItem refers to items not in the file: "
            f"{', '.join(missing)[:200]}."
        )
    texts = [by_guid[r] for r in refs if _item_class(by_guid[r]) == "text"]
    if not texts:
        raise WireFormatError("The packageItem groups no text item.")
    story = _text_item(texts[0])
    if _status(package) != USABLE:
        story.status = _status(package)
    story.headline = story.headline or one_line(_content(package, "headline"))
    for ref in refs:
        if _item_class(by_guid[ref]) == "picture":
            picture = _picture(by_guid[ref])
            if picture is not None:
                story.pictures.append(picture)
    return story
