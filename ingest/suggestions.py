"""What the importer proposes beyond what the text states outright (reads only).

- each post's source, when its platform and handle are a source's social account;
- sources the body names ("في مقابلة مع صحيفة «الشرق الأوسط»"), as "cited";
- existing tags the story's text names;
- people the newsroom does not know yet (from `proposals`), minus anyone it does.

Nothing here writes: the editor confirms each proposal in the preview (or with the
command's --accept-* options), and `services.story_import` creates what was confirmed.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from taggit.models import Tag

from identity.gate import IdentityGate
from identity.models import PersonName
from sources.models import SocialAccount, Source

from .budget import check_budget
from .parse import ParsedStory, is_breaking_tag, says_breaking
from .problems import Problem, alert
from .proposals import (
    MENTIONED,
    NAME,
    QUOTED,
    SUBJECT,
    NameProposal,
    name_key,
    propose_names,
)
from .recognize import WORD_RE, SourceCatalog, folded, source_key, words_of

MIN_PHRASE = 3  # letters; shorter names ("24", "AP") match too much prose


@dataclass
class CitedSource:
    """A known source the story's body names, proposed as a "cited" attribution."""

    source: Source
    name_used: str
    line: int

    @property
    def key(self) -> str:
        return str(self.source.pk)

    def as_dict(self) -> dict:
        return {
            "source_id": self.source.pk,
            "source_name": self.source.name,
            "name_used": self.name_used,
            "line": self.line,
            "role": "cited",
        }


class PhraseIndex:
    """Phrases (names of things) by their first normalized word, found in text with
    Arabic prefixes allowed on the first word ("لصحيفة", "والشرق")."""

    def __init__(self) -> None:
        self.by_first: dict[str, list[tuple[tuple[str, ...], object]]] = {}

    def add(self, phrase: str, thing: object) -> None:
        words = tuple(WORD_RE.findall(source_key(phrase)))
        if words and len("".join(words)) >= MIN_PHRASE and not "".join(words).isdigit():
            self.by_first.setdefault(words[0], []).append((words, thing))

    def find(self, text: str) -> list[tuple[object, str]]:
        """(thing, the phrase as written) for every phrase in `text`."""
        found: list[tuple[object, str]] = []
        if not self.by_first:
            return found
        words = words_of(text)
        for position, word in enumerate(words):
            for reading, _cut, _put_back in word.readings:
                for phrase, thing in self.by_first.get(reading, ()):
                    following = words[position + 1 : position + len(phrase)]
                    if tuple(folded(w.surface) for w in following) == phrase[1:]:
                        surface = [
                            w.surface for w in words[position : position + len(phrase)]
                        ]
                        found.append((thing, " ".join(surface)))
        return found


def _own_segments(story: ParsedStory):
    if story.kicker:
        yield story.headline_line - 1, story.kicker
    yield story.headline_line, story.headline
    if story.summary:
        yield story.headline_line + 1, story.summary
    yield from zip(story.paragraph_lines, story.paragraphs, strict=True)


def cited_sources(
    story: ParsedStory, credited: set[int], *, catalog: SourceCatalog | None = None
) -> list[CitedSource]:
    """Known sources the story's own copy names, except those already credited."""
    catalog = catalog or SourceCatalog.current()
    index = catalog.extra.get("phrases")
    if index is None:
        index = PhraseIndex()
        for source in catalog.sources:
            for name in source.names():
                index.add(name, source)
        catalog.extra["phrases"] = index
    found: dict[int, CitedSource] = {}
    for line, text in _own_segments(story):
        check_budget()
        for source, surface in index.find(text):
            if source.pk not in credited and source.pk not in found:
                found[source.pk] = CitedSource(source, surface, line)
    return list(found.values())


# Handles looked up per query: a paste of thousands of posts stays a few queries,
# each well within every database's limit on parameters.
HANDLES_PER_QUERY = 500


def post_sources(story: ParsedStory) -> list[Source | None]:
    """For each post, the source whose social account posted it (any letter case)."""
    handles: dict[str, set[str]] = {}
    for post in story.posts:
        if post.handle:
            handles.setdefault(str(post.platform), set()).add(post.handle.lower())
    accounts = {}
    for platform, names in handles.items():
        names = sorted(names)
        for first in range(0, len(names), HANDLES_PER_QUERY):
            check_budget()
            rows = (
                SocialAccount.objects.annotate(folded=Lower("handle"))
                .filter(platform=platform)
                .filter(folded__in=names[first : first + HANDLES_PER_QUERY])
                .select_related("source")
            )
            accounts.update({(platform, row.folded): row.source for row in rows})
    return [
        accounts.get((str(p.platform), p.handle.lower())) if p.handle else None
        for p in story.posts
    ]


def tags_in_text(story: ParsedStory) -> list[str]:
    """Existing tags the story's own copy names, as their names."""
    index = PhraseIndex()
    for name in Tag.objects.values_list("name", flat=True):
        index.add(name, name)
    found: list[str] = []
    for _line, text in _own_segments(story):
        check_budget()
        found += [name for name, _surface in index.find(text)]
    return list(dict.fromkeys(found))


def breaking_reason(story: ParsedStory, *, now: datetime | None = None) -> str:
    """Why the breaking flag is proposed, or "" when it is not.

    Only the story's own copy (its kicker, headline or dateline says "عاجل") or a
    post marked breaking and published within BREAKING_NEWS_HOURS of the import
    proposes it. A quoted post's urgency is the post's: a post of another outlet
    marked #عاجل days or years ago says nothing about this story. A post often
    carries only its day; a day that reaches into those hours counts as recent.
    """
    if story.calls_itself_breaking:
        return _("The story's own headline or dateline says it is breaking news.")
    now = timezone.localtime(now or timezone.now())
    since = (now - timedelta(hours=settings.BREAKING_NEWS_HOURS)).date()
    for post in story.posts:
        marked = any(is_breaking_tag(h) for h in post.hashtags) or says_breaking(
            post.text
        )
        if marked and post.posted_at is not None and since <= post.posted_at:
            return _(
                "A post marked breaking news was published within the last "
                "%(hours)s hours."
            ) % {"hours": settings.BREAKING_NEWS_HOURS}
    return ""


def _spellings(key_word: str) -> set[str]:
    """The stored (folded) first words a proposal's word may come from: name_key
    also cuts a "و" from a long word, which a stored name keeps."""
    return {key_word, f"و{key_word}"}


def _known_keys(proposals: list[NameProposal]) -> set[str]:
    """The keys of the people's matchable names (PersonName: public names, aliases,
    and legal names that are not protected) that could equal a proposal's key.

    One indexed query on the names' first words, instead of loading every person:
    only names starting like a proposal can have its key.
    """
    heads: set[str] = set()
    for proposal in proposals:
        words = proposal.key.split()
        if not words:
            continue
        firsts = _spellings(words[0])
        heads |= firsts
        if len(words) > 1:
            heads |= {f"{a} {b}" for a in firsts for b in _spellings(words[1])}
    if not heads:
        return set()
    rows = PersonName.objects.filter(head__in=heads).values_list("words", flat=True)
    return {name_key(words) for words in rows}


def people_proposals(
    story: ParsedStory,
    known_names: list[str],
    *,
    gate: IdentityGate | None = None,
    matches: list | None = None,
) -> tuple[list[NameProposal], list[Problem]]:
    """Names that may be new people, minus those the newsroom knows.

    A proposal that spells a protected legal name (its name as written or as it
    would be saved, or its folded form) passes no further: nothing is proposed,
    and one alert says so without repeating the name. Proposing the others would
    leave a list with one name missing, which would say which it was.

    A new name the copy ties to someone the newsroom knows (`matches`, the people
    the story names) is proposed as that person's alias.
    """
    candidates = propose_names(story)
    known = {name_key(n) for n in known_names} | _known_keys(candidates)
    gate = gate if gate is not None else IdentityGate.load()
    proposals = [p for p in candidates if p.key not in known]
    if gate and any(_spells_protected_name(p, gate) for p in proposals):
        return [], [protected_proposal_alert()]
    _tie_to_known_people(candidates, known, matches or [])
    _known_people_roles(candidates, matches or [])
    return proposals, []


def _known_people_roles(candidates: list[NameProposal], matches) -> None:
    """Each known person's role, from the names the copy gives them: a known man
    revealing himself is the story's subject as much as a new one."""
    order = [SUBJECT, QUOTED, MENTIONED]
    roles = {p.key: p.role for p in candidates}
    for match in matches:
        found = [
            roles[key]
            for name, _kind in match.person.matchable_names()
            if (key := name_key(name)) in roles
        ]
        if found:
            match.role = min(found, key=order.index)


def _tie_to_known_people(candidates: list[NameProposal], known: set[str], matches):
    """Point new names at the known person their tied names belong to.

    A person's own name is never tied to a protected person: that would write a
    name beside a pseudonym the newsroom protects, which is an identity officer's
    call, not an import's. The name is then proposed on its own."""
    people = {}
    for match in matches:
        for name, _kind in match.person.matchable_names():
            people.setdefault(name_key(name), match.person)
    by_name = {p.name: p for p in candidates}
    groups: dict[str, list[NameProposal]] = {}
    for proposal in candidates:
        groups.setdefault(proposal.alias_of or proposal.name, []).append(proposal)
    for primary, members in groups.items():
        person = next((people[m.key] for m in members if m.key in people), None)
        if person is None or len(members) < 2:
            continue
        for member in members:
            if member.key in known:
                continue
            if member.kind == NAME and person.identity_protected:
                continue
            member.alias_of_person, member.alias_of = person, ""
        head = by_name.get(primary)
        if head is not None and head.key not in known and head.alias_of_person:
            head.alias_evidence = next(
                (m.alias_evidence for m in members if m.alias_evidence), ""
            )


def _spells_protected_name(proposal: NameProposal, gate: IdentityGate) -> bool:
    spellings = {proposal.name, proposal.name[:200], proposal.key}
    return any(gate.people_in(spelling) for spelling in spellings if spelling)


def protected_proposal_alert() -> Problem:
    return alert(
        _(
            "PROTECTED IDENTITY: a name in this copy matches a protected person; it "
            "was left out, and so were the other proposed people. Replace it with "
            "the public name (pseudonym); nothing is imported until then."
        ),
        code="protected_name",
        where=_("proposed people"),
    )
