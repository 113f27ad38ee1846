"""Which proposed names the copy ties to one person, which it keeps apart, and each
person's part in the story; pure, no database.

The copy ties names together when:
- someone reveals who they are next to a quoted nickname ("«قيصر» يكشف هويته",
  "كشف أسامة عثمان عن هويته"): a story tells of one revelation, so when its
  revealing sentences name one person, the nicknames they quote are his;
- a naming phrase follows a name ("خالد يوسف، المعروف بـ«أبو ليلى»", "Tomas Berg,
  known as Falcon");
- a quoted nickname is then named ("«الطبيب»، واسمه الحقيقي سالم الحربي").

It keeps two names apart when it says they are two people: "كلاً من «سامي»
و«قيصر»", "both X and Y", "الرجلان" in the sentence naming them, or "a person close
to him, later known as «قيصر»" beside another name (that nickname is introduced as
someone else). A tie the copy also contradicts is not proposed: one person made of
two would print one man's name as another's alias, a pseudonymous source's beside
a real name among them; two people where there is one cost the editor a choice in
the "alias of" list.

Roles: whoever reveals himself is the one whose story it is (subject); otherwise
the people the headline names are. Then whoever speaks (quoted), then the rest
(mentioned). Names tied to one person share its strongest role.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from arabic import normalize

from .budget import check_budget
from .text import snippet

SUBJECT, QUOTED, MENTIONED = "subject", "quoted", "mentioned"
NAME, NICKNAME = "name", "nickname"
_RANK = {SUBJECT: 0, QUOTED: 1, MENTIONED: 2}

_SENTENCE_END = set(".!?؟؛\n")
REVEALS = {
    normalize(w)
    for w in ["كشف", "كشفت", "يكشف", "تكشف", "وكشف", "وكشفت", "فكشف", "ويكشف"]
} | {"reveal", "reveals", "revealed", "revealing"}
# "كلاً من «سامي» و«قيصر»" / "both X and Y": what follows names two people.
_EACH_OF = [(normalize("كلا"), "من"), (normalize("كل"), "من"), ("both",)]
# "… الرجلان": a dual or a "the two" in the sentence naming them.
_TWO = {
    normalize(w)
    for w in ["الرجلان", "الرجلين", "كلاهما", "كليهما", "الاثنان", "الاثنين"]
} | {"both", "two"}
# "شخصاً قريباً منه صار يُعرف بـ«قيصر»": a naming phrase after one of these
# introduces someone new, not the name before it.
PERSON_NOUNS = {
    normalize(w) for w in ["شخص", "شخصا", "رجل", "رجلا", "شاب", "شابا", "امراه", "سيده"]
} | {"person", "man", "woman", "someone"}


@dataclass
class Tie:
    """Two proposals (by key) the copy calls one person, and the words saying so."""

    first: str
    second: str
    evidence: str
    firm: bool = True  # said in one phrase; a revelation across sentences is not


@dataclass
class Findings:
    """What the scan of the copy noted beside the names themselves."""

    ties: list[Tie] = field(default_factory=list)
    # A nickname introduced as someone new: (line, start, end) of the words doing
    # it, from "a person" to the nickname.
    introduced: dict[str, tuple[int, int, int]] = field(default_factory=dict)


def is_identity_word(key: str) -> bool:
    """ "هويته", "هويتها", "identity": what someone reveals about themselves."""
    return key.startswith("هويت") or key == "identity"


def sentences(tokens: list, text: str) -> list[list]:
    """A line's tokens, split where the text between two of them ends a sentence."""
    result, current = [], []
    for token in tokens:
        if current and _SENTENCE_END & set(text[current[-1].end : token.start]):
            result.append(current)
            current = []
        current.append(token)
    if current:
        result.append(current)
    return result


def quoted_in_revelations(tokenized: Iterable[tuple[int, str, list]]) -> set[str]:
    """The quoted words of the sentences in which someone reveals his identity."""
    found = set()
    for _line, text, tokens in tokenized:
        for sentence in sentences(tokens, text):
            if _reveals(sentence):
                found |= {token.key for token in sentence if token.quoted}
    return found


def link_names(
    proposals: list,
    tokenized: Iterable[tuple[int, str, list]],
    *,
    headline_line: int,
    spoken: set[str],
    findings: Findings,
) -> None:
    """Set each proposal's `alias_of`, `alias_evidence`, `apart` and `role`."""
    by_key = {p.key: p for p in proposals}
    firsts: dict[str, list[tuple[str, ...]]] = {}
    for key in by_key:
        firsts.setdefault(key.split()[0], []).append(tuple(key.split()))
    people = _People(by_key)
    # (line, evidence, keys) of each revealing sentence, in copy order.
    reveals: list[tuple[int, str, list[str]]] = []
    headline: set[str] = set()
    for line, text, tokens in tokenized:
        check_budget()
        if line == headline_line:
            headline |= {token.key for token in tokens}
        for sentence in sentences(tokens, text):
            named = _names_in(sentence, firsts)
            evidence = _words(text, sentence)
            keys = list(dict.fromkeys(key for _index, key in named))
            _note_apart(sentence, named, text, people)
            for nickname, (where, start, end) in findings.introduced.items():
                inside = sentence[0].start <= start <= sentence[-1].end
                if where == line and inside:
                    words = snippet(text, start, end, around=20)
                    _all_apart([nickname, *keys], words, people, first_only=True)
            if _reveals(sentence):
                reveals.append((line, evidence, keys))
    seen: set[tuple[str, str]] = set()
    for tie in findings.ties:  # one join per pair, however often the copy says it
        if (tie.first, tie.second) not in seen:
            seen.add((tie.first, tie.second))
            people.join(tie.first, tie.second, tie.evidence, tie.firm)
    revealer = _revelation(reveals, by_key, people, findings)
    headline_reveals = any(line == headline_line for line, _e, _k in reveals)
    _assign_roles(proposals, people, revealer, headline, headline_reveals, spoken)
    people.name_aliases(proposals)


class _People:
    """Names grouped into people, refusing any join the copy contradicts."""

    def __init__(self, by_key: dict) -> None:
        self.by_key = by_key
        self.group = {key: key for key in by_key}
        self.apart: dict[frozenset, str] = {}
        self.evidence: dict[str, str] = {}

    def find(self, key: str) -> str:
        while self.group[key] != key:
            key = self.group[key]
        return key

    def members(self, key: str) -> list[str]:
        root = self.find(key)
        return [k for k in self.by_key if self.find(k) == root]

    def keep_apart(self, first: str, second: str, evidence: str) -> None:
        if first != second:
            self.apart.setdefault(frozenset((first, second)), evidence)

    def conflict(self, first: str, second: str) -> str:
        """The words keeping the two names' people apart, or ""."""
        for a in self.members(first):
            for b in self.members(second):
                if frozenset((a, b)) in self.apart:
                    return self.apart[frozenset((a, b))]
        return ""

    def join(self, first: str, second: str, evidence: str, firm: bool = True) -> bool:
        """Make the two names one person, unless the copy keeps them apart (or,
        for a tie read across sentences, each is already a person's own name)."""
        if first not in self.by_key or second not in self.by_key:
            return False
        if self.find(first) == self.find(second):
            return True
        if not firm and all(
            any(self.by_key[k].kind == NAME for k in self.members(key))
            for key in (first, second)
        ):
            return False
        apart = self.conflict(first, second)
        if apart:
            self.by_key[second].apart = self.by_key[second].apart or apart
            return False
        self.group[self.find(second)] = self.find(first)
        self.evidence.setdefault(second, evidence)
        self.evidence.setdefault(first, evidence)
        return True

    def name_aliases(self, proposals: list) -> None:
        """In each person, the first name proper (else the first nickname) is the
        one the others are aliases of."""
        for proposal in proposals:
            members = [self.by_key[k] for k in self.members(proposal.key)]
            if len(members) < 2:
                continue
            primary = next((m for m in members if m.kind == NAME), members[0])
            if proposal is not primary:
                proposal.alias_of = primary.name
                proposal.alias_evidence = self.evidence.get(proposal.key, "")


def _names_in(sentence: list, firsts: dict) -> list[tuple[int, str]]:
    """(token index, proposal key) of each proposed name the sentence holds."""
    keys = [token.key for token in sentence]
    found = []
    for index, key in enumerate(keys):
        for words in firsts.get(key, ()):
            if tuple(keys[index : index + len(words)]) == words:
                found.append((index, " ".join(words)))
    return found


def _words(text: str, tokens: list) -> str:
    """The copy from the first of `tokens` to the last, with a few words around,
    cut between words: the evidence an editor reads."""
    if not tokens:
        return ""
    return snippet(text, tokens[0].start, tokens[-1].end, around=30)


def _reveals(sentence: list) -> bool:
    keys = [token.key for token in sentence]
    return any(k in REVEALS for k in keys) and any(is_identity_word(k) for k in keys)


def _note_apart(sentence: list, named: list, text: str, people: _People) -> None:
    """Names the sentence calls two people: after "كلاً من", or with "الرجلان"."""
    keys = [token.key for token in sentence]
    at = dict(named)  # token index → the name starting there
    for index in range(len(keys)):
        for phrase in _EACH_OF:
            if tuple(keys[index : index + len(phrase)]) == phrase:
                following = [i for i in range(index + 1, index + 9) if i in at]
                if len(following) > 1:
                    words = _words(text, [sentence[index], sentence[following[-1]]])
                    names = list(dict.fromkeys(at[i] for i in following))
                    _all_apart(names, words, people)
    two = [index for index, key in enumerate(keys) if key in _TWO]
    names = list(dict.fromkeys(key for _index, key in named))
    if two and len(names) > 1:
        ends = sorted([two[0], named[0][0], named[-1][0]])
        words = _words(text, [sentence[ends[0]], sentence[ends[-1]]])
        _all_apart(names, words, people)


def _all_apart(
    keys: list[str], evidence: str, people: _People, *, first_only: bool = False
) -> None:
    """Keep every two of `keys` apart (or only the first from each other one)."""
    for position, first in enumerate(keys):
        for second in keys[position + 1 :]:
            people.keep_apart(first, second, evidence)
        if first_only:
            return


def _revelation(
    reveals: list, by_key: dict, people: _People, findings: Findings
) -> str | None:
    """Tie the nicknames of the story's revealing sentences to whoever reveals
    himself; the key of that person's main name, or None without a revelation.

    Only one revealer named in the story makes the sentences one revelation. A
    nickname the copy keeps apart from another one of them is left out: first a
    nickname the copy introduces as someone else; if the copy still names two
    people, every nickname involved (the copy cannot be read as one man)."""
    named = [k for _l, _e, keys in reveals for k in keys]
    revealers = list(dict.fromkeys(k for k in named if by_key[k].kind == NAME))
    nicknames = list(dict.fromkeys(k for k in named if by_key[k].kind == NICKNAME))
    if len(revealers) > 1:
        return None
    anchor = revealers[0] if revealers else (nicknames[0] if nicknames else None)
    if anchor is None:
        return None
    evidence = {k: e for _l, e, keys in reversed(reveals) for k in keys}
    candidates = [k for k in nicknames if k != anchor]
    conflicted = _conflicted([anchor, *candidates], people)
    if conflicted:
        candidates = [k for k in candidates if k not in findings.introduced]
        still = _conflicted([anchor, *candidates], people)
        candidates = [k for k in candidates if k not in still]
        for key in conflicted - set(candidates) - {anchor}:
            by_key[key].apart = by_key[key].apart or _apart_words(key, people)
    for key in candidates:
        people.join(anchor, key, evidence[key], firm=False)
    return anchor


def _conflicted(keys: list[str], people: _People) -> set[str]:
    found = set()
    for position, first in enumerate(keys):
        for second in keys[position + 1 :]:
            if people.conflict(first, second):
                found |= {first, second}
    return found


def _apart_words(key: str, people: _People) -> str:
    return next((words for pair, words in people.apart.items() if key in pair), "")


def _assign_roles(
    proposals: list,
    people: _People,
    revealer: str | None,
    headline: set[str],
    headline_reveals: bool,
    spoken: set[str],
) -> None:
    # A headline telling of the revelation is about the revealer, whatever
    # nickname it uses for him (the copy may have kept that one apart).
    headline_reveals = headline_reveals and revealer is not None
    roles = {}
    revealed = people.find(revealer) if revealer is not None else None
    for proposal in proposals:
        words = set(proposal.key.split())
        in_headline = bool(words & headline) and not headline_reveals
        if people.find(proposal.key) == revealed or in_headline:
            role = SUBJECT
        elif words & spoken:
            role = QUOTED
        else:
            role = MENTIONED
        root = people.find(proposal.key)
        if root not in roles or _RANK[role] < _RANK[roles[root]]:
            roles[root] = role
    for proposal in proposals:
        proposal.role = roles[people.find(proposal.key)]
