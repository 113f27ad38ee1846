"""Attribution lines and datelines: who a pasted story credits; pure, no database.

"المصدر: موقع 24", "نقلاً عن: رويترز، أ ف ب", "(وكالات)", "Source: Reuters" and the
"دبي - (أ ف ب):" opening a first paragraph. Every pattern is anchored and bounded
(lines longer than an attribution line are not tried), so none can backtrack far.
"""

import re
from dataclasses import dataclass
from datetime import date

from arabic import strip_marks
from core.text import URL_RE

MAX_CREDIT_LINE = 300  # an attribution line is short; longer lines are prose
REPUBLISHED = "republished"
VIA = "via"
CITED = "cited"
_LABELS = {
    "المصدر": REPUBLISHED, "المصادر": REPUBLISHED, "مصدر الخبر": REPUBLISHED,
    "نقلا عن": VIA, "بتصرف عن": VIA, "عن": VIA,
    "source": REPUBLISHED, "sources": REPUBLISHED, "credit": REPUBLISHED,
    "via": VIA, "courtesy of": VIA, "courtesy": VIA,
    "بحسب": CITED, "according to": CITED,
}  # fmt: skip
_SOURCE_LINE_RE = re.compile(
    r"^[(\[]?\s*(?P<label>" + "|".join(sorted(_LABELS, key=len, reverse=True)) + r")"
    r"\s*[:：]\s*(?P<value>.{1,150}?)\s*[)\]]?\.?$",
    re.IGNORECASE,
)
_AGENCIES_LINE_RE = re.compile(
    r"^[(\[]?\s*(?P<value>وكالات|agencies)\s*[)\]]?\.?$", re.I
)
_PARENTHESIS_LINE_RE = re.compile(r"^\((?P<value>[^()\n]{1,40})\)\.?$")
# "دبي - (أ ف ب):", "(رويترز) -", "LONDON (Reuters) -" opening the first paragraph.
_DATELINE_RE = re.compile(
    r"^(?P<place>[^\s()\d][^()\n:]{0,30}?)?\s*[-–—]?\s*\((?P<value>[^()\n]{1,30})\)"
    r"\s*[:：\-–—]"
)
_SPLIT_RE = re.compile(r"\s*(?:[،,;/|]|\s-\s|\sand\s)\s*", re.IGNORECASE)
_QUOTES = "\"'«»“”„‘’"


@dataclass
class AttributionCandidate:
    """A credit found in the text, before it is matched to a Source."""

    name: str
    role: str
    line: int
    url: str = ""
    kind: str = "source line"  # or "dateline", "agencies"
    # When the original appeared, if its line says ("المصدر: موقع 24، 12 ديسمبر 2024").
    published_on: date | None = None

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "role": self.role,
            "line": self.line,
            "url": self.url,
            "kind": self.kind,
            "published_on": self.published_on.isoformat() if self.published_on else "",
        }


@dataclass
class CreditLine:
    """A whole "المصدر: …" line, kept so an unknown source is never lost."""

    text: str
    line: int
    position: int
    names: list[str]


def credit_line_names(line: str) -> tuple[str, list[str]] | None:
    """(role, names) when `line` is an attribution line such as "المصدر: موقع 24"."""
    bare = strip_marks(line).strip()
    if len(bare) > MAX_CREDIT_LINE:
        return None
    match = _SOURCE_LINE_RE.match(bare)
    if match:
        role = _LABELS[match["label"].lower()]
        return role, split_names(match["value"])
    for pattern in (_AGENCIES_LINE_RE, _PARENTHESIS_LINE_RE):
        match = pattern.match(bare)
        if match:
            return REPUBLISHED, split_names(match["value"])
    return None


def is_agencies_line(line: str) -> bool:
    return bool(_AGENCIES_LINE_RE.match(strip_marks(line).strip()))


def dateline_names(paragraph: str) -> list[str]:
    """Sources named by a dateline opening the first paragraph, if it has one."""
    # A dateline is short: looking at the opening only bounds the pattern's work.
    match = _DATELINE_RE.match(strip_marks(paragraph[:200]))
    if not match or (match["place"] and len(match["place"].split()) > 3):
        return []
    return split_names(match["value"])


def split_names(value: str) -> list[str]:
    if URL_RE.fullmatch(value.strip()):
        return [value.strip()]
    names = [part.strip().strip(_QUOTES).strip() for part in _SPLIT_RE.split(value)]
    return [name for name in dict.fromkeys(names) if name]
