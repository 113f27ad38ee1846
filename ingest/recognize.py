"""Matching what the parser found to the newsroom's sources and people (reads only)."""

import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache

from django.utils.translation import gettext as _

from arabic import normalize, strip_clitics, strip_marks
from articles.models import ArticlePerson
from identity.models import Person, PersonName
from sources.models import Attribution, Source

from .budget import check_budget
from .credits import AttributionCandidate
from .parse import ParsedStory

# Words that describe an outlet rather than name it ("وكالة رويترز" → "رويترز").
_GENERIC_WORDS = {"وكاله", "صحيفه", "موقع", "قناه", "جريده", "مجله", "agency", "the"}
_PUNCTUATION_RE = re.compile(r"[\"'«»“”.()\[\]]")
WORD_RE = re.compile(r"\w+")


@dataclass
class SourceMatch:
    """An attribution candidate and the Source it names, if the newsroom knows it."""

    candidate: AttributionCandidate
    source: Source | None = None
    how: str = ""

    @property
    def matched(self) -> bool:
        return self.source is not None

    @property
    def role_label(self) -> str:
        """The credit's role as the admin names it, in the admin's language."""
        try:
            return str(Attribution.Role(self.candidate.role).label)
        except ValueError:
            return self.candidate.role

    def as_dict(self) -> dict:
        return {
            "source": self.candidate.name,
            "role": self.candidate.role,
            "line": self.candidate.line,
            "kind": self.candidate.kind,
            "matched": self.matched,
            "source_id": self.source.pk if self.source else None,
            "source_name": self.source.name if self.source else None,
            "how": self.how,
        }


@dataclass
class PersonMatch:
    """A person of the database named in the story, and the name the story uses."""

    person: Person
    name_used: str
    how: str
    lines: list[int] = field(default_factory=list)
    # The person's part in the story, as the copy tells it (proposals.propose_names
    # reads it for every name, known or not).
    role: str = "mentioned"

    @property
    def role_label(self) -> str:
        return str(ArticlePerson.Role(self.role).label)

    def as_dict(self) -> dict:
        return {
            "person_id": self.person.pk,
            "person": self.person.display_name,
            "name_used": self.name_used,
            "how": self.how,
            "lines": self.lines,
            "protected": self.person.identity_protected,
            "role": self.role,
        }


# ---------------------------------------------------------------- sources


def source_key(name: str) -> str:
    return " ".join(_PUNCTUATION_RE.sub(" ", normalize(name)).split())


def _keys(name: str) -> list[str]:
    """Spellings of a name that should match: as written, without spaces
    (أ ف ب / أ.ف.ب), and without a leading generic word (وكالة رويترز)."""
    key = source_key(name)
    words = key.split()
    keys = [key, key.replace(" ", "")]
    if len(words) > 1 and words[0] in _GENERIC_WORDS:
        keys.append(" ".join(words[1:]))
    return [k for k in keys if k]


# What the importer reads of a source; a change to any of these makes a new catalog.
_CATALOG_FIELDS = (
    "pk",
    "name_ar",
    "name_en",
    "aliases",
    "domains",
    "slug",
    "kind",
    "link_required",
    "credit_as",
)
_catalogs: dict[int, "SourceCatalog"] = {}
_catalogs_lock = threading.Lock()


class SourceCatalog:
    """The newsroom's sources with what is built from them (the name index, and
    anything a caller memoizes in `extra`), kept per process while the sources stay
    as they are.

    Each import still reads the sources' names (one small query) and compares them
    with what the catalog was built from, so a source added, renamed or removed in
    any process or by any command is seen at once; only the Source objects and the
    folding of every name into keys are saved (most of an import's source cost).
    """

    def __init__(self, rows: tuple, sources: list[Source]) -> None:
        self.rows = rows
        self.sources = sources
        self.index = SourceIndex(sources)
        self.extra: dict[str, object] = {}

    @classmethod
    def current(cls) -> "SourceCatalog":
        rows = tuple(Source.objects.order_by("pk").values_list(*_CATALOG_FIELDS))
        fingerprint = hash(rows)
        with _catalogs_lock:
            catalog = _catalogs.get(fingerprint)
        if catalog is None or catalog.rows != rows:
            catalog = cls(rows, list(Source.objects.order_by("pk")))
            with _catalogs_lock:
                _catalogs.clear()  # only the sources as they are now are kept
                _catalogs[fingerprint] = catalog
        return catalog


class SourceIndex:
    """Every source by its normalized names and aliases."""

    def __init__(self, sources: list[Source]) -> None:
        self.by_key: dict[str, tuple[Source, str]] = {}
        for source in sources:
            primary = {source.name_ar, source.name_en}  # type: ignore[attr-defined]
            for name in source.names():
                how = _("name") if name in primary else _("alias")
                for key in _keys(name):
                    self.by_key.setdefault(key, (source, how))

    def match(self, candidate: AttributionCandidate) -> SourceMatch:
        for key in _keys(candidate.name):
            if key in self.by_key:
                source, how = self.by_key[key]
                return SourceMatch(candidate, source, how)
        if candidate.url or re.fullmatch(r"[\w.-]+\.[a-z]{2,}", candidate.name, re.I):
            source = Source.objects.for_domain(candidate.url or candidate.name)
            if source:
                return SourceMatch(candidate, source, _("domain"))
        return SourceMatch(candidate)


def match_sources(
    candidates: list[AttributionCandidate], *, catalog: SourceCatalog | None = None
) -> list[SourceMatch]:
    """Each candidate matched to a Source by name, alias or domain, or unmatched."""
    if not candidates:
        return []
    index = (catalog or SourceCatalog.current()).index
    matches, seen = [], set()
    for candidate in candidates:
        match = index.match(candidate)
        # A dateline and a credit line often name the same agency: credit it once.
        key = (
            (match.source.pk, candidate.role)
            if match.source
            else source_key(candidate.name)
        )
        if key not in seen:
            seen.add(key)
            matches.append(match)
    return matches


# ---------------------------------------------------------------- people


@dataclass(frozen=True)
class _Name:
    person: Person
    words: tuple[str, ...]
    how: str


@dataclass
class _Word:
    surface: str
    # (normalized reading, letters of the prefix cut off, letters put back): "للأسد"
    # reads as "الاسد" by cutting "لل" and putting back "ال".
    readings: tuple[tuple[str, int, str], ...]


def words_of(text: str) -> list[_Word]:
    return [_Word(s, _readings(s)) for s in WORD_RE.findall(strip_marks(text))]


@lru_cache(maxsize=65_536)
def _readings(surface: str) -> tuple[tuple[str, int, str], ...]:
    """A word's readings, worked out once per distinct word: copy repeats words."""
    folded = normalize(surface)
    readings = []
    for reading in strip_clitics(folded):
        if folded.endswith(reading):
            readings.append((reading, len(folded) - len(reading), ""))
        else:
            readings.append((reading, len(folded) - len(reading) + 2, "ال"))
    return tuple(readings)


@lru_cache(maxsize=65_536)
def folded(surface: str) -> str:
    """normalize(), remembered per distinct word."""
    return normalize(surface)


def _people_names(heads: set[str]) -> dict[str, list[_Name]]:
    """The public names of the people whose names start with one of `heads` (a word
    of the copy, or two in a row), by their first word: one indexed query, however
    many people there are (Person.matchable_names says which names count)."""
    index: dict[str, list[_Name]] = {}
    rows = PersonName.objects.filter(head__in=heads).select_related("person")
    for row in rows:
        how = str(PersonName.Kind(row.kind).label)
        words = tuple(row.words.split())
        index.setdefault(words[0], []).append(_Name(row.person, words, how))
    return index


def _heads(words: list["_Word"]) -> set[str]:
    """Every reading of every word, alone and followed by the next word."""
    heads = set()
    for position, word in enumerate(words):
        following = words[position + 1 : position + 2]
        for reading, _cut, _put_back in word.readings:
            heads.add(reading)
            if following:
                heads.add(f"{reading} {normalize(following[0].surface)}")
    return heads


def match_people(story: ParsedStory) -> list[PersonMatch]:
    """People of the database named in the story by a public name (clitics allowed)."""
    segments = [(line, words_of(text)) for line, text, _where in story.segments()]
    heads = set().union(*(_heads(words) for _, words in segments))
    index = _people_names(heads) if heads else {}
    if not index:
        return []
    found: dict[int, PersonMatch] = {}
    for line, words in segments:
        check_budget()
        for position in range(len(words)):
            for name, clitic in _names_at(words, position, index):
                match = found.get(name.person.pk)
                if match is None:
                    match = found[name.person.pk] = PersonMatch(
                        name.person, "", name.how
                    )
                if line not in match.lines:
                    match.lines.append(line)
                if not match.name_used:
                    surface = words[position : position + len(name.words)]
                    match.name_used = _name_as_written(surface, clitic)
                    match.how = name.how + (_(" (after a prefix)") if clitic else "")
    return list(found.values())


def _names_at(words: list[_Word], position: int, index) -> list[tuple[_Name, tuple]]:
    found = []
    for reading, cut, put_back in words[position].readings:
        clitic = (cut, put_back) if cut else None
        for name in index.get(reading, ()):
            rest = name.words[1:]
            following = words[position + 1 : position + 1 + len(rest)]
            if tuple(folded(w.surface) for w in following) == rest:
                found.append((name, clitic))
    return found


def _name_as_written(words: list[_Word], clitic: tuple | None) -> str:
    """The name as the story spells it, without the prefix glued to its first word."""
    first = words[0].surface
    if clitic:
        cut, put_back = clitic
        first = put_back + first[cut:]
    return " ".join([first, *(w.surface for w in words[1:])])[:200]
