"""One agency item, whatever format it came in: the plain structure the parsers
fill and the import reads."""

from dataclasses import asdict, dataclass, field
from datetime import datetime

USABLE = "usable"
WITHHELD = "withheld"
CANCELED = "canceled"
# The agency's urgencies that propose breaking news: 1 is a flash, 2 urgent.
BREAKING_URGENCY = 2


class WireFormatError(ValueError):
    """A file that is neither NewsML-G2 nor ninjs, or breaks their rules; the
    message says what was wrong, for the channel's log."""


@dataclass
class Subject:
    code: str  # an IPTC Media Topic code ("20000568"), or the agency's own
    name: str = ""


@dataclass
class Picture:
    href: str
    caption: str = ""
    credit: str = ""
    guid: str = ""
    content_type: str = ""


@dataclass
class WireItem:
    guid: str
    version: int
    format: str
    status: str = USABLE
    headline: str = ""
    summary: str = ""
    body_html: str = ""
    language: str = ""
    dateline: str = ""
    place: str = ""
    byline: str = ""
    urgency: int | None = None
    embargo: datetime | None = None
    version_created: datetime | None = None
    subjects: list[Subject] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)

    @property
    def is_kill(self) -> bool:
        """The agency withdrew the item (canceled) or holds it back (withheld)."""
        return self.status in (CANCELED, WITHHELD)

    @property
    def proposes_breaking(self) -> bool:
        return self.urgency is not None and self.urgency <= BREAKING_URGENCY

    @property
    def topic_codes(self) -> list[str]:
        return [s.code for s in self.subjects if s.code]

    def as_json(self) -> dict:
        data = asdict(self)
        for name in ("embargo", "version_created"):
            value = getattr(self, name)
            data[name] = value.isoformat() if value else None
        return data

    @classmethod
    def from_json(cls, data: dict) -> "WireItem":
        data = dict(data)
        for name in ("embargo", "version_created"):
            data[name] = datetime.fromisoformat(data[name]) if data.get(name) else None
        data["subjects"] = [Subject(**s) for s in data.get("subjects", [])]
        data["pictures"] = [Picture(**p) for p in data.get("pictures", [])]
        return cls(**data)
