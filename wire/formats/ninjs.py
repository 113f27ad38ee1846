"""IPTC ninjs 2.x (lower-case names: versioncreated, pubstatus, embargoed) and 3.x
(camelCase: versionCreated, pubStatus, embargoedUntil) → WireItem.

Associations are a list in 3.x and may be a list or an object keyed by name in
2.x (as in 1.x); renditions likewise. Pictures are the associations of type
"picture" with a rendition to download.
"""

from django.utils.html import escape

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


def is_ninjs(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("uri"), str)


def parse_ninjs(data: dict) -> list[WireItem]:
    """One ninjs document is one item."""
    if not is_ninjs(data):
        raise WireFormatError("A ninjs document is a JSON object with a “uri”.")
    three = _is_three(data)

    def get(camel: str, lower: str):
        return data.get(camel if three else lower, data.get(camel, data.get(lower)))

    status = str(get("pubStatus", "pubstatus") or USABLE)
    if status not in (USABLE, WITHHELD, CANCELED):
        raise WireFormatError(f"Unknown pubStatus “{status[:30]}”.")
    kind = data.get("type", "text")
    if kind not in ("text", "composite"):
        raise WireFormatError(f"The ninjs item is a {str(kind)[:20]}, not a story.")
    places = [
        p.get("name", "") for p in _list(data.get("places")) if isinstance(p, dict)
    ]
    return [
        WireItem(
            guid=data["uri"].strip()[:250],
            version=version_number(data.get("version")),
            format="ninjs-3" if three else "ninjs-2",
            status=status,
            headline=one_line(
                _value(data.get("headlines"), "main") or data.get("headline")
            ),
            summary=one_line(
                _value(data.get("descriptions"), "summary")
                or data.get("description_text"),
                2000,
            ),
            body_html=_body(data),
            language=language_code(str(data.get("language", ""))),
            dateline=one_line(str(data.get("located", ""))),
            place=one_line(places[0] if places else str(data.get("located", ""))),
            byline=one_line(str(data.get("by", "")), 200),
            urgency=urgency(data.get("urgency")),
            embargo=when(get("embargoedUntil", "embargoed")),
            version_created=when(get("versionCreated", "versioncreated")),
            subjects=_subjects(data.get("subjects")),
            pictures=_pictures(data.get("associations"), three),
        )
    ]


def _is_three(data: dict) -> bool:
    version = str((data.get("standard") or {}).get("version", ""))
    if version:
        return version.startswith("3")
    return any(k in data for k in ("versionCreated", "pubStatus", "embargoedUntil"))


def _list(value) -> list:
    """A list as is; an object keyed by name as its values, each given its name."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return [
            dict(v, name=v.get("name", k)) if isinstance(v, dict) else v
            for k, v in value.items()
        ]
    return []


def _value(entries, role: str) -> str:
    entries = [e for e in _list(entries) if isinstance(e, dict) and "value" in e]
    chosen = next((e for e in entries if e.get("role") == role), None)
    chosen = chosen or (entries[0] if entries else None)
    return str(chosen["value"]) if chosen else ""


def _body(data: dict) -> str:
    bodies = [b for b in _list(data.get("bodies")) if isinstance(b, dict)]
    for body in bodies:
        kind = body.get("contentType", body.get("contenttype", ""))
        if "html" in kind:
            return str(body.get("value", ""))
    if bodies:
        return "\n".join(
            f"<p>{escape(' '.join(part.split()))}</p>"
            for part in str(bodies[0].get("value", "")).split("\n\n")
            if part.strip()
        )
    return str(data.get("body_html", ""))


def _subjects(entries) -> list[Subject]:
    subjects = []
    for entry in _list(entries):
        if not isinstance(entry, dict):
            continue
        code = media_topic(str(entry.get("uri", ""))) or media_topic(
            str(entry.get("literal", ""))
        )
        if code:
            subjects.append(Subject(code, one_line(str(entry.get("name", "")))))
    return subjects


def _pictures(associations, three: bool) -> list[Picture]:
    pictures = []
    for entry in _list(associations):
        if not isinstance(entry, dict) or entry.get("type") != "picture":
            continue
        renditions = [r for r in _list(entry.get("renditions")) if isinstance(r, dict)]
        renditions = [r for r in renditions if r.get("href")]
        if not renditions:
            continue
        best = max(renditions, key=lambda r: int(r.get("width") or 0))
        credit = entry.get(
            "copyrightNotice" if three else "copyrightnotice"
        ) or entry.get("by", "")
        pictures.append(
            Picture(
                href=str(best["href"])[:500],
                caption=one_line(
                    _value(entry.get("descriptions"), "caption")
                    or _value(entry.get("headlines"), "main"),
                    1000,
                ),
                credit=one_line(str(credit), 200),
                guid=str(entry.get("uri", ""))[:250],
                content_type=str(best.get("contentType", best.get("contenttype", ""))),
            )
        )
    return pictures
