"""Reading agency files: NewsML-G2 and ninjs 2.x/3.x into one structure."""

import json
from datetime import UTC, datetime

import pytest

from wire.formats import WireFormatError, parse_wire

from .conftest import sample_bytes


def one(name: str):
    items = parse_wire(sample_bytes(name))
    assert len(items) == 1
    return items[0]


def test_newsml_package_reads_its_text_item_with_metadata():
    """A packageItem's text item is the story: GUID, version, headline, language,
    place, byline, urgency, summary and body."""
    item = one("oasis_package_ar_v1.xml")
    assert item.guid == "urn:newsml:wire.example:20261201:souq"
    assert item.version == 1
    assert item.format == "newsml-g2"
    assert item.headline == "افتتاح سوق الواحة القديم بعد ترميمه"
    assert item.language == "ar"
    assert item.place == "مدينة الواحة"
    assert item.dateline == "مدينة الواحة، 1 ديسمبر"
    assert item.byline == "فريق الواحة الثقافي"
    assert item.urgency == 4
    assert item.summary.startswith("عاد السوق القديم")
    assert item.body_html.count("<p>") == 3
    assert "xmlns" not in item.body_html


def test_newsml_package_brings_its_pictures_largest_rendition():
    """The picture items a package groups are the story's pictures, caption and
    credit included, at their largest rendition."""
    (picture,) = one("oasis_package_ar_v1.xml").pictures
    assert picture.href == "http://wire.example/pictures/souq.jpg"
    assert picture.caption.startswith("زوار يتجولون")
    assert picture.credit == "وكالة أنباء الواحة / سلمى ناصر"


def test_newsml_embargo_and_media_topics_are_read():
    item = one("oasis_package_ar_v1.xml")
    assert item.embargo == datetime(2026, 12, 2, 6, tzinfo=UTC)
    assert item.topic_codes == ["01000000", "20000568"]


def test_newsml_canceled_item_is_a_kill():
    item = one("oasis_text_ar_kill.xml")
    assert item.status == "canceled"
    assert item.is_kill
    assert item.version == 3


def test_ninjs_3_flash_with_picture_association():
    item = one("oasis_flash_en.json")
    assert item.format == "ninjs-3"
    assert item.urgency == 1
    assert item.proposes_breaking
    assert item.language == "en"
    assert item.topic_codes == ["17000000", "20000151"]
    assert item.pictures[0].href == "http://wire.example/pictures/dam.jpg"
    assert item.pictures[0].credit == "Oasis News Agency / Lina Farah"


def test_ninjs_2_lower_case_names_and_plain_text_body():
    item = one("oasis_ninjs2_en_v1.json")
    assert item.format == "ninjs-2"
    assert item.version == 1
    assert item.language == "en"
    assert item.body_html.count("<p>") == 2
    assert not item.proposes_breaking


def test_ninjs_2_kill():
    assert one("oasis_ninjs2_en_kill.json").is_kill


def test_xml_that_is_not_newsml_is_refused_with_a_reason():
    with pytest.raises(WireFormatError, match="not NewsML-G2"):
        parse_wire(sample_bytes("not_wire.xml"))


def test_a_file_that_is_neither_format_is_refused():
    with pytest.raises(WireFormatError, match="neither NewsML-G2"):
        parse_wire(sample_bytes("note.txt"))


def test_entities_are_never_expanded():
    """A DOCTYPE's entities (a local file, a billion laughs) are left unexpanded."""
    (item,) = parse_wire(sample_bytes("entities.xml"))
    assert "root:" not in item.headline
    assert "aaaa" not in item.headline


def test_a_file_over_the_size_limit_is_refused_unread(settings):
    with pytest.raises(WireFormatError, match="limit"):
        parse_wire(b"<" + b" " * settings.WIRE_ITEM_MAX_BYTES)


def test_broken_json_is_refused():
    with pytest.raises(WireFormatError, match="JSON is not valid"):
        parse_wire(b'{"uri": ')


def test_package_referring_to_missing_items_is_refused():
    data = sample_bytes("oasis_package_ar_v1.xml").replace(
        b'residref="urn:newsml:wire.example:20261201:souq"', b'residref="urn:elsewhere"'
    )
    with pytest.raises(WireFormatError, match="not in the file"):
        parse_wire(data)


def test_json_nested_without_end_is_refused():
    with pytest.raises(WireFormatError, match="nested too deeply"):
        parse_wire(b"[" * 20_000 + b"]" * 20_000)


def test_xml_nested_without_end_is_refused():
    with pytest.raises(WireFormatError, match="not well formed"):
        parse_wire(b"<a>" * 100_000 + b"</a>" * 100_000)


def test_ninjs_associations_keyed_by_name_are_read():
    """ninjs 1.x and some 2.x feeds key associations and renditions by name."""
    document = {
        "uri": "urn:wire.example:keyed",
        "version": "1",
        "pubstatus": "usable",
        "headlines": [{"value": "Keyed associations"}],
        "associations": {
            "featureimage": {
                "type": "picture",
                "uri": "urn:wire.example:keyed-photo",
                "renditions": {
                    "small": {"href": "http://wire.example/s.jpg", "width": 100},
                    "large": {"href": "http://wire.example/l.jpg", "width": 900},
                },
            }
        },
    }
    (item,) = parse_wire(json.dumps(document).encode())
    assert [p.href for p in item.pictures] == ["http://wire.example/l.jpg"]


def test_newsml_inline_data_becomes_paragraphs():
    data = sample_bytes("oasis_text_ar_v2.xml")
    start = data.index(b"<inlineXML")
    end = data.index(b"</inlineXML>") + len(b"</inlineXML>")
    data = (
        data[:start]
        + "<inlineData>فقرة أولى.\n\nفقرة ثانية.</inlineData>".encode()
        + data[end:]
    )
    (item,) = parse_wire(data)
    assert item.body_html == "<p>فقرة أولى.</p>\n<p>فقرة ثانية.</p>"


def test_an_unknown_pub_status_is_refused():
    data = sample_bytes("oasis_text_ar_v2.xml").replace(b"stat:usable", b"stat:maybe")
    with pytest.raises(WireFormatError, match="Unknown pubStatus"):
        parse_wire(data)


def test_a_version_that_is_not_a_number_is_refused():
    data = sample_bytes("oasis_ninjs2_en_v1.json").replace(
        b'"version": "1"', b'"version": "one"'
    )
    with pytest.raises(WireFormatError, match="not a number"):
        parse_wire(data)
