"""Names in a story that may be people the newsroom does not know; pure, no database.

The importer proposes, the editor decides: every name found here is shown in the
preview with the line it came from and a suggested role, and nothing is created
until an editor confirms it. What counts as evidence of a name:

- a short quoted name used as a nickname that the story repeats («قيصر», "سامي");
- the words after a title or a naming phrase (الرئيس، الدكتور، المدعو، يُعرف باسم،
  المعروف بـ; President, Dr., known as);
- the words between "كشف" and "عن هويته" (someone revealing who they are);
- the name after a quoted nickname's "اسمه الحقيقي" / "whose real name is";
- in English copy, a capitalized full name that recurs.

Each proposal is a name (a person's own) or a nickname (a pseudonym, or what the
copy says someone is known as): a nickname becomes a person's public name or
alias, never their legal name. Which names the copy ties to one person, and each
person's part in the story, is worked out in `aliases`.

Arabic has no capital letters, so an Arabic full name is proposed only with one of
the signals above. Everything works on word lists, never on backtracking patterns.
"""

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from arabic import normalize, strip_clitics, strip_marks

from .aliases import (
    MENTIONED,
    NAME,
    NICKNAME,
    PERSON_NOUNS,
    QUOTED,
    REVEALS,
    SUBJECT,
    Findings,
    Tie,
    is_identity_word,
    link_names,
    quoted_in_revelations,
)
from .budget import check_budget
from .parse import ParsedStory
from .text import snippet

__all__ = ["MENTIONED", "NAME", "NICKNAME", "QUOTED", "SUBJECT", "NameProposal"]


_WORD_RE = re.compile(r"[^\W\d_][\w\u064b-\u065f\u0670\u0640]*")
_QUOTE_PAIRS = {"«": "»", "“": "”", '"': '"', "„": "“"}
MAX_NAME_WORDS = 3
MAX_PROPOSALS = 50  # more is noise an editor cannot review

_TITLES = {
    normalize(w)
    for w in [
        "الرئيس",
        "الدكتور",
        "المدعو",
        "الشيخ",
        "الأمير",
        "الوزير",
        "المهندس",
        "العقيد",
        "اللواء",
        "العميد",
        "السيد",
        "السيدة",
        "الناشط",
        "الناشطة",
        "الصحفي",
        "الصحفية",
        "القاضي",
        "النائب",
        "الملك",
    ]
} | {"president", "dr", "mr", "mrs", "ms", "minister", "sheikh", "prince", "judge"}
# Words between a title and the name ("الرئيس السابق بشار الأسد").
_FILLERS = {
    normalize(w)
    for w in [
        "السابق",
        "الراحل",
        "الحالي",
        "الاسبق",
        "المخلوع",
        "الجديد",
        "لاحقا",
        "ايضا",
        "اليوم",
    ]
} | {"former", "late", "then", "current"}
# "يُعرف باسم" / "المعروف بـ" / "known as": the name follows.
_NAMING = [
    tuple(normalize(w) for w in phrase.split())
    for phrase in (
        "يعرف باسم",
        "يعرف ب",
        "عرف باسم",
        "عرف ب",
        "المعروف باسم",
        "المعروف ب",
        "الملقب ب",
        "يلقب ب",
    )
] + [("known", "as"), ("called",), ("nicknamed",)]
# "المدعو ماهر" (the one called Maher) names a man by his name, not a nickname.
_NAMED = {normalize("المدعو")}
# "«الطبيب»، واسمه الحقيقي سالم": the person's own name follows a nickname.
REAL_NAME = [
    tuple(normalize(w) for w in phrase.split())
    for phrase in ("اسمه الحقيقي", "اسمها الحقيقي", "اسمه", "اسمها")
] + [("real", "name", "is"), ("whose", "name", "is")]
_REAL_NAME_FIRST = {phrase[0] for phrase in REAL_NAME}
# How many words after the nickname its "اسمه الحقيقي" may come.
_REAL_NAME_REACH = 8
_SPEECH = {
    normalize(w)
    for w in [
        "قال",
        "يقول",
        "قالت",
        "تقول",
        "اكد",
        "شدد",
        "اوضح",
        "اضاف",
        "صرح",
        "يضيف",
    ]
} | {"said", "says", "told", "added", "stressed"}
_SPEECH |= {conjunction + verb for verb in _SPEECH for conjunction in "وف"}
# Nouns that open the names of laws, files and bodies, not of people.
_NOT_PEOPLE = {
    normalize(w)
    for w in [
        "قانون",
        "ملف",
        "ملفات",
        "منظمة",
        "مجلس",
        "لائحة",
        "حركة",
        "جماعة",
        "عملية",
        "مشروع",
        "برنامج",
        "قضية",
        "اتفاق",
        "صحيفة",
        "موقع",
        "وكالة",
        "قناة",
    ]
} | {"law", "act", "operation", "the", "a", "an"}
_RELATIVE = {normalize(w) for w in ["الذي", "التي", "الذين"]} | {"who"}
_STOP = {normalize(w) for w in ["الذي", "التي", "الذين"]} | {
    normalize(w)
    for w in [
        "عن",
        "في",
        "من",
        "على",
        "الى",
        "مع",
        "و",
        "او",
        "ثم",
        "بعد",
        "قبل",
        "ما",
        "صار",
        "كان",
    ]
}


@dataclass
class NameProposal:
    """A name that may be a person, with the line that suggests it."""

    name: str
    role: str
    line: int | None
    evidence: str
    reason: str
    key: str = ""
    lines: list[int] = field(default_factory=list)
    kind: str = NAME  # NICKNAME: saved as a public name or alias, never a legal name
    # The proposed name this one is an alias of, when the copy ties them ("" if
    # none), and the words that tie them; `apart` quotes the copy keeping this
    # name apart from another when a tie was not proposed for that reason.
    alias_of: str = ""
    alias_evidence: str = ""
    apart: str = ""
    # Set by suggestions.people_proposals: the known person this name belongs to.
    alias_of_person: object = None

    @property
    def is_nickname(self) -> bool:
        return self.kind == NICKNAME

    def as_dict(self) -> dict:
        person = self.alias_of_person
        return {
            "name": self.name,
            "role": self.role,
            "line": self.line,
            "evidence": self.evidence,
            "reason": self.reason,
            "kind": self.kind,
            "alias_of": self.alias_of,
            "alias_of_person": getattr(person, "pk", None),
            "alias_evidence": self.alias_evidence,
        }


@dataclass
class _Token:
    surface: str
    key: str  # normalized, proclitics off
    quoted: bool
    start: int
    end: int


def name_key(name: str) -> str:
    """A name folded for comparison: normalized words, proclitics off each word."""
    return " ".join(_bare(normalize(w)) for w in _WORD_RE.findall(strip_marks(name)))


def _bare(word: str) -> str:
    """A normalized word without the prefixes glued to it: "وبالجيش" → "الجيش",
    "وسامي" → "سامي". Only "و" is cut from a word without the article, and only from
    a long one: بشار, لينا and كمال begin with what looks like a prefix."""
    for reading in strip_clitics(word)[1:]:
        if reading.startswith("ال") and len(reading) > 3:
            return reading
    if word.startswith("و") and len(word) > 4:
        return word[1:]
    return word.lower()


@lru_cache(maxsize=65_536)
def word_key(surface: str) -> str:
    """A word as names are compared: marks, prefixes and letter forms folded."""
    return _bare(normalize(strip_marks(surface)))


def _tokens(text: str) -> list[_Token]:
    """Words of a line, each marked if it sits inside quotation marks."""
    quoted_spans, opener = [], None
    for index, char in enumerate(text):
        if opener is None and char in _QUOTE_PAIRS:
            opener = (char, index)
        elif opener is not None and char == _QUOTE_PAIRS[opener[0]]:
            quoted_spans.append((opener[1], index))
            opener = None
    tokens, span = [], 0
    for match in _WORD_RE.finditer(text):
        while span < len(quoted_spans) and quoted_spans[span][1] < match.start():
            span += 1
        inside = span < len(quoted_spans) and (
            quoted_spans[span][0] < match.start() < quoted_spans[span][1]
        )
        surface = match.group()
        key = word_key(surface)
        tokens.append(_Token(surface, key, inside, match.start(), match.end()))
    return tokens


def propose_names(story: ParsedStory) -> list[NameProposal]:
    """Names the story gives people, each once, with its evidence, whether it is a
    name or a nickname, whose alias it is, and a role."""
    lines = [(line, text) for line, text, _w in story.segments() if text]
    tokenized = [(line, text, _tokens(text)) for line, text in lines]
    counts = Counter(t.key for _l, _t, tokens in tokenized for t in tokens)
    # A nickname is quoted more than once ("قيصر" … «قيصر») and used bare too.
    quoted = Counter(
        part[0].key
        for _l, _t, tokens in tokenized
        for index, token in enumerate(tokens)
        if token.quoted and (index == 0 or not tokens[index - 1].quoted)
        for part in _split_and(_quoted_run(tokens, index))
        if len(part) == 1
    )
    runs = {
        line: _capitalized_runs(tokens) if story.language == "en" else []
        for line, _text, tokens in tokenized
    }
    run_counts = Counter(
        _run_key(run) for found_runs in runs.values() for run in found_runs
    )
    found: dict[str, NameProposal] = {}
    findings = Findings()
    revealing = quoted_in_revelations(tokenized)

    def propose(words, line, text, reason, kind=NAME, *, article=False) -> str:
        """The key of the name `words` spell (proposed now if it is new), or ""."""
        words = _trim(words, article=article)
        if not words or len(words) > MAX_NAME_WORDS:
            return ""
        name = " ".join(w.surface for w in words)
        name = _without_clitic(words[0]) + name[len(words[0].surface) :]
        key = name_key(name)
        if not key:
            return ""
        if key in found:
            if line not in found[key].lines:
                found[key].lines.append(line)
            return key
        if len(found) >= MAX_PROPOSALS:
            return ""
        evidence = snippet(text, words[0].start, words[-1].end)
        found[key] = NameProposal(
            name, MENTIONED, line, evidence, reason, key, [line], kind
        )
        return key

    for line, text, tokens in tokenized:
        check_budget()
        keys = [t.key for t in tokens]
        quoted_at = -1  # the last quoted word before `index`, for _real_name
        for index, token in enumerate(tokens):
            near = 0 <= index - quoted_at <= _REAL_NAME_REACH
            if keys[index] in _REAL_NAME_FIRST and quoted_at >= 0 and near:
                where = (line, text, tokens[quoted_at])
                _real_name(tokens, keys, index, where, propose, findings)
            if token.quoted:
                quoted_at = index
            after = _after_title_or_phrase(keys, index)
            if after is not None:
                position, naming = after
                if naming:
                    _known_as(tokens, index, position, line, text, propose, findings)
                else:
                    propose(_name_run(tokens, position, text), line, text, "title")
            if token.quoted and (index == 0 or not tokens[index - 1].quoted):
                run = _quoted_run(tokens, index)
                for part in _split_and(run):
                    nickname = len(part) == 1 and quoted[part[0].key] >= 2
                    # «النسر» beside a revelation is a nickname, article and all.
                    article = nickname and part[0].key in revealing
                    if (
                        nickname
                        and counts[part[0].key] >= 3
                        and _may_be_name(part[0], article=article)
                    ):
                        propose(part, line, text, "nickname", NICKNAME, article=article)
            if token.key in REVEALS:
                end = _revealed_until(keys, index)
                if end:
                    propose(tokens[index + 1 : end], line, text, "revealed")
        for run in runs[line]:
            if run_counts[_run_key(run)] >= 2:
                propose(run, line, text, "recurring")
    proposals = list(found.values())
    link_names(
        proposals,
        tokenized,
        headline_line=story.headline_line,
        spoken=_near_speech(tokenized),
        findings=findings,
    )
    return proposals


def _known_as(tokens, index, position, line, text, propose, findings) -> None:
    """A naming phrase at `index` ("المعروف بـ", "known as") and the nickname after
    it: tied to the name right before the phrase, or, after "a person" ("شخصاً
    قريباً منه صار يُعرف بـ«قيصر»"), introduced as someone new."""
    before = _name_before(tokens, index, text)
    after = _name_run(tokens, position, text)
    # «الصقر» after a name's naming phrase is a nickname, article and all;
    # elsewhere ("ما عُرف بـ«الجيش الحر»") a word with the article names a thing.
    nickname = propose(
        after, line, text, "known as", NICKNAME, article=bool(before) and bool(after)
    )
    if not nickname:
        return
    if before:
        name = propose(before, line, text, "known as")
        if name and name != nickname:
            findings.ties.append(Tie(name, nickname, snippet(text, *_span(before))))
    else:
        nouns = [t for t in tokens[max(0, index - 6) : index] if t.key in PERSON_NOUNS]
        if nouns:
            span = (line, nouns[-1].start, after[-1].end)
            findings.introduced.setdefault(nickname, span)


def _span(words: list[_Token]) -> tuple[int, int]:
    return words[0].start, words[-1].end


def _name_before(tokens: list[_Token], index: int, text: str) -> list[_Token]:
    """The name (up to two words) right before a naming phrase: "خالد يوسف،
    المعروف بـ", "كريم الذي يعرف باسم", "Tomas Berg, known as". A verb form
    ("يعرف") needs "الذي" before it: "صار يعرف" or "ما عرف" name no one."""
    end = index
    if not tokens[index].key.startswith("ال") and tokens[index].key not in (
        "known",
        "nicknamed",
    ):
        if index == 0 or tokens[index - 1].key not in _RELATIVE:
            return []
        end = index - 1
    words: list[_Token] = []
    for token in reversed(tokens[max(0, end - 2) : end]):
        following = words[0] if words else tokens[end]
        gap = text[token.end : following.start]
        if gap.strip(" ،,") or (words and gap.strip()):
            break
        if token.key in _STOP or token.key in _SPEECH or token.key in _TITLES:
            break
        words.insert(0, token)
    if any(w.surface[:1].isascii() and not w.surface[:1].isupper() for w in words):
        return []
    return _trim(words)


def _real_name(tokens, keys, index, where, propose, findings) -> None:
    """ "«الطبيب»، واسمه الحقيقي سالم الحربي": the name after the phrase is the
    person's own, tied to the last quoted word before it in the line (`where`
    holds the line's number, its text and that word)."""
    line, text, nickname_word = where
    for phrase in REAL_NAME:
        if tuple(keys[index : index + len(phrase)]) != phrase:
            continue
        position = index + len(phrase)
        if position >= len(tokens) or tokens[position].quoted:
            return
        nickname = propose(
            [nickname_word], line, text, "nickname", NICKNAME, article=True
        )
        name = propose(_name_run(tokens, position, text), line, text, "real name")
        if nickname and name:
            evidence = snippet(text, nickname_word.start, tokens[position].end)
            findings.ties.append(Tie(name, nickname, evidence))
        return


def _without_clitic(token: _Token) -> str:
    """The first word as a name is written: "لسامي" → "سامي"."""
    surface = strip_marks(token.surface).replace("\u0640", "")
    folded = normalize(surface)
    if folded != token.key and folded.endswith(token.key):
        return surface[len(surface) - len(token.key) :]
    return surface


def _after_title_or_phrase(keys: list[str], index: int) -> tuple[int, bool] | None:
    """Index of the first name word after a title or naming phrase at `index`, and
    whether it was a naming phrase (a nickname follows) rather than a title. A
    filler may sit inside a phrase: "يُعرف لاحقاً بـ«قيصر»"."""
    position, naming = None, False
    if keys[index] in _TITLES:
        position = index + 1
    else:
        for phrase in _NAMING:
            end = _phrase_end(keys, index, phrase)
            if end is not None:
                position, naming = end, True
                break
    if position is None:
        return None
    while position < len(keys) and keys[position] in _FILLERS:
        position += 1
    return (position, naming) if position < len(keys) else None


def _phrase_end(keys: list[str], index: int, phrase: tuple[str, ...]) -> int | None:
    if keys[index] != phrase[0]:
        return None
    position = index + 1
    for word in phrase[1:]:
        # One filler at most inside a phrase ("يُعرف لاحقاً بـ").
        if position < len(keys) and keys[position] in _FILLERS:
            position += 1
        if position >= len(keys) or keys[position] != word:
            return None
        position += 1
    return position


def _name_run(tokens: list[_Token], start: int, text: str) -> list[_Token]:
    """Up to two words from `start` (the quoted span if one opens there), ending at
    punctuation: "المدعو ماهر، الذي" names ماهر."""
    if tokens[start].quoted:
        return _quoted_run(tokens, start)
    run = []
    for token in tokens[start : start + 2]:
        if token.key in _STOP or token.key in _SPEECH or token.quoted:
            break
        if run and text[run[-1].end : token.start].strip():
            break
        run.append(token)
    return run


def _quoted_run(tokens: list[_Token], start: int) -> list[_Token]:
    run = []
    for token in tokens[start : start + MAX_NAME_WORDS + 1]:
        if not token.quoted:
            break
        run.append(token)
    return run


def _split_and(run: list[_Token]) -> list[list[_Token]]:
    """ "قيصر وسامي" → [قيصر], [سامي]: a conjunction glued to the second name."""
    parts, current = [], []
    for token in run:
        glued_and = token.surface.startswith("و") and token.key != normalize(
            strip_marks(token.surface)
        )
        if current and glued_and:
            parts.append(current)
            current = []
        current.append(token)
    if current:
        parts.append(current)
    return parts


def _may_be_name(token: _Token, *, article: bool = False) -> bool:
    key = token.key
    return (
        len(key) >= 3
        and (article or not key.startswith("ال"))
        and key not in _NOT_PEOPLE
        and key not in _STOP
        and not key.isdigit()
    )


def _trim(words: list[_Token], *, article: bool = False) -> list[_Token]:
    """The name words, or none when the first word cannot open a person's name (a
    common noun with the article, unless `article` says a nickname may have one;
    a law or a body; a preposition)."""
    words = [w for w in words if w.key not in _FILLERS]
    if not words or words[0].key in _NOT_PEOPLE or words[0].key in _STOP:
        return []
    if words[0].key in PERSON_NOUNS:
        return []
    if not article and (
        words[0].key.startswith("ال") or words[0].key in ("the", "a", "an")
    ):
        return []
    return words


def _revealed_until(keys: list[str], index: int) -> int | None:
    """End of the name in "كشف NAME عن هويته", or None."""
    for end in range(index + 2, min(index + 2 + MAX_NAME_WORDS, len(keys) - 1)):
        if keys[end] == "عن" and is_identity_word(keys[end + 1]):
            return end
    return None


def _capitalized_runs(tokens: list[_Token]) -> list[list[_Token]]:
    """Every two or three capitalized words in a row ("Later Tomas Berg" gives
    "Later Tomas", "Tomas Berg" and all three), so a name opening a sentence and
    the same name after a capitalized word are counted together."""
    runs, current = [], []
    for token in [*tokens, None]:
        if (
            token is not None
            and token.surface[:1].isupper()
            and token.surface.isalpha()
        ):
            current.append(token)
            continue
        for size in range(2, MAX_NAME_WORDS + 1):
            runs += [current[i : i + size] for i in range(len(current) - size + 1)]
        current = []
    return runs


def _run_key(run: list[_Token]) -> str:
    return " ".join(t.key for t in run)


def _near_speech(tokenized) -> set[str]:
    """Words within three of a speech verb ("وشدد سامي على"): whoever is quoted."""
    near: set[str] = set()
    for _line, _text, tokens in tokenized:
        for index, token in enumerate(tokens):
            if token.key in _SPEECH:
                near.update(t.key for t in tokens[max(0, index - 3) : index + 4])
    return near
