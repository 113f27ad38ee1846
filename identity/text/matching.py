"""Finding legal spellings in text: what a reader may be shown, and the matcher.

`readings()` gives the texts a stored text can show a reader: decoded (JSON
``\\uXXXX`` escapes, HTML entities, percent-escapes, IDNA ``xn--`` host names), with
and without its markup (tags removed join the letters they split, "<b>Niz</b>ar";
kept, attribute values such as a link's href and title or an image's alt are read
too), and with the letters inside a bidi override reversed, as they are displayed.

A `Matcher` finds a spelling in the folded readings two ways:

- its letters run together anywhere in the text's letters: names glued into slugs,
  handles, hashtags and file names, or behind Arabic proclitics (ولمازن, للخطيب);
- its words near each other, in either order, with at most two other words between
  them, connectors (بن, ابن, أبو, bin, al…) not counted: a surname first
  ("الحلبوني، نزار"), a father's name inserted ("نزار بن خالد الحلبوني"). A word is
  read with its proclitics (arabic.strip_clitics) and without its article, so
  "والحلبوني" and "حلبوني" both stand for "الحلبوني".

It errs on the side of the protected person: a refusal costs an editor a minute, a
leak can cost a life.
"""

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote

from arabic import strip_clitics

from .drawn import drawn, has_drawn_reading
from .folding import fold, letters, read_together
from .lineage import names_parent

# A spelling shorter than this would be found inside ordinary words.
MIN_SPELLING_LETTERS = 4
# Shorter words of a spelling are not looked for on their own.
MIN_WORD_LETTERS = 3
# Words of one name found with at most this many other words between them.
MAX_WORDS_BETWEEN = 2
# Words that join the parts of a name: not looked for, not counted between.
CONNECTORS = frozenset(
    fold(
        "بن ابن بنت ولد أبو أبي أم آل ال bin ben ibn bint ould abu abou abi umm al el"
    ).split()
)
# The first word of an ancestor's compound name ("عبد الكريم"), and the second
# ("نور الدين"): after a lineage word, both are the ancestor's.
_COMPOUND_LEADS = frozenset(fold("عبد abd abdel abdul abdal abdoul").split())
_COMPOUND_TAILS = frozenset(fold("الله الدين allah din eddine eddin uddin").split())
# Words between two names that make them two people's: "نزار و الحلبوني".
_LIST_WORDS = frozenset(fold("و أو and or").split())
# The Latin article glued to a name: "Alkhatib".
_LATIN_ARTICLES = tuple(fold("al el").split())

# Bidi overrides (LRO, RLO) show the letters they enclose in the order they force:
# a Latin name typed backwards inside RLO … PDF is displayed forwards.
BIDI_OVERRIDES = ("\u202d", "\u202e")
# An override's run ends at its PDF or at the end of the paragraph. Nested
# embeddings inside a run are not resolved: the whole run is reversed.
_OVERRIDE_RUN_RE = re.compile("[\u202d\u202e]([^\u202c\u2029\n]*)\u202c?")
# A tag as a browser reads it, before it decodes any entity: an attribute's value
# quoted after its "=" may hold < and >.
_TAG_RE = re.compile(r"""<(?:[^<>=]|=\s*"[^"]*"|=\s*'[^']*'|=)*>""")
TOKEN_RE = re.compile(r"\S+")
_JSON_ESCAPE_RE = re.compile(r"\\u([0-9a-fA-F]{4})")
_PUNYCODE_RE = re.compile(r"xn--([a-z0-9-]+)", re.IGNORECASE)
# Starting with a literal "%", so the search skips to each one.
_PERCENT_RUN_RE = re.compile(r"%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2})*")


def decoded(text: str) -> str:
    """`text` with the escapes a browser or a JSON reader undoes, undone."""
    if "\\u" in text:
        text = _JSON_ESCAPE_RE.sub(lambda m: chr(int(m[1], 16)), text)
        # Characters outside the BMP arrive as two escaped surrogates.
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if "&" in text:
        text = html.unescape(text)
    if "%" in text:
        # Run by run: unquote() on a whole page would split it at every change
        # between ASCII and Arabic.
        text = _PERCENT_RUN_RE.sub(lambda m: unquote(m[0]), text)
    if "xn--" in text or "XN--" in text:
        text = _PUNYCODE_RE.sub(_from_punycode, text)
    return text


def _from_punycode(match: re.Match) -> str:
    try:
        return match[1].encode("ascii").decode("punycode")
    except UnicodeError:
        return match[0]


def has_override(text: str) -> bool:
    """Whether `text` holds a bidi override (a substring search: fast on a page)."""
    return any(override in text for override in BIDI_OVERRIDES)


def readings(text: str) -> list[str]:
    """The texts `text` may show a reader (see the module's docstring)."""
    if not text:
        return []
    found = views(decoded(text))
    shown = shown_text(text)
    return found if shown is None or shown in found else [*found, shown]


def shown_text(text: str) -> str | None:
    """What markup `text` shows once a browser has cut out its tags, then decoded
    the rest ("ماز<a title="&gt;">ن" shows مازن); None without markup."""
    if "<" not in text:
        return None
    return decoded(_TAG_RE.sub("", text))


def views(text: str) -> list[str]:
    """The texts already decoded `text` may show: itself, without its markup,
    those with their Arabic read as the data draws it (identity.text.drawn), and
    those with every bidi override's run reversed."""
    found = [text]
    if "<" in text:
        found.append(_TAG_RE.sub("", text))
    if has_drawn_reading(text):
        found += [reading for each in found for reading in drawn(each)]
    if has_override(text):
        found += [_OVERRIDE_RUN_RE.sub(lambda m: m[1][::-1], each) for each in found]
    return found


def merged(found: list, more: list) -> list:
    """`found`, then those of `more` not in it (each owner once)."""
    if not more:
        return found
    seen = {id(each) for each in found}
    return [*found, *(each for each in more if id(each) not in seen)]


def without_markup(text: str) -> str:
    """`text` decoded, without its tags."""
    return untagged(decoded(text))


def untagged(text: str) -> str:
    """`text` without its tags."""
    return _TAG_RE.sub("", text)


@dataclass(frozen=True)
class _Spelling:
    owner: object
    # The spelling's letters run together, in each form it is looked for in.
    runs: tuple[str, ...]
    # Its words to find near each other (bare of the article); none for one word.
    words: tuple[str, ...]
    # Words that every run holds, longest (rarest) first: text whose letters lack
    # one holds the spelling in no form, so it is passed over at the cost of one
    # search.
    required: tuple[str, ...]


def _bare(word: str) -> str:
    """A word without the Arabic article, when enough of it remains."""
    if word.startswith("ال") and len(word) - 2 >= MIN_WORD_LETTERS:
        return word[2:]
    return word


def _spelling(owner, spelling: str) -> _Spelling | None:
    words = fold(spelling).split()
    whole = read_together("".join(words))
    if len(whole) < MIN_SPELLING_LETTERS:
        return None
    named = [w for w in words if w not in CONNECTORS and len(w) >= MIN_WORD_LETTERS]
    bare = list(dict.fromkeys(_bare(w) for w in named))
    runs = {whole}
    if len(bare) > 1:
        # Also without its short words and articles ("NizarHalbouni"), as long as
        # two words remain: "أبو نزار" must not become every "نزار".
        runs |= {read_together("".join(named)), read_together("".join(bare))}
    # ل + ال is written لل: "للخطيب" holds "الخطيب" without its alef.
    runs |= {"ل" + run[1:] for run in runs if run.startswith("ال")}
    runs = {run for run in runs if len(run) >= MIN_SPELLING_LETTERS}
    return _Spelling(
        owner,
        runs=tuple(sorted(runs)),
        words=tuple(bare) if len(bare) > 1 else (),
        required=tuple(
            sorted(
                (word for word in bare if all(word in run for run in runs)),
                key=len,
                reverse=True,
            )
        ),
    )


def _word_readings(token: str, *, first: bool) -> set[str]:
    """The words of a name a folded token may stand for: itself and without its
    article, and for a name's first word also without its proclitics ("ولنزار
    الحلبوني": and to Nizar al-Halbouni). A later word carrying one joins a second
    name to the first rather than continuing it: "الخطيب ومازن" (al-Khatib and
    Mazen), "الخطيب بمازن" (al-Khatib with Mazen) name two people."""
    found = set(strip_clitics(token)) if first else {token}
    found |= {_bare(each) for each in found}
    if token.startswith(_LATIN_ARTICLES) and len(token) - 2 >= MIN_WORD_LETTERS:
        found.add(token[2:])
    return found


@dataclass
class Matcher:
    """Spellings, each with whom it belongs to, folded once and ready to be found."""

    spellings: list[_Spelling] = field(default_factory=list)
    _word_patterns: dict[int, re.Pattern] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, spellings: Iterable[tuple[object, str]]) -> "Matcher":
        """A matcher for (owner, spelling) pairs; too-short spellings are left out."""
        found = (_spelling(owner, text) for owner, text in spellings)
        return cls([each for each in found if each is not None])

    def __bool__(self) -> bool:
        return bool(self.spellings)

    def owners_in(self, text: str) -> list:
        """Owners of the spellings found in any reading of `text`, each once."""
        if not self.spellings or not text:
            return []
        return self.owners_in_folded(fold(each) for each in readings(text))

    def owners_in_folded(
        self, texts: Iterable[str], *, only: Iterable[int] | None = None
    ) -> list:
        """Owners of the spellings (those numbered `only`, or all) found in already
        folded texts, each once."""
        indexes = range(len(self.spellings)) if only is None else list(only)
        found: dict[int, object] = {}
        for text in texts:
            run = read_together(text.replace(" ", ""))
            for index in indexes:
                owner = self.spellings[index].owner
                if id(owner) not in found and self.found(index, text, run):
                    found[id(owner)] = owner
        return list(found.values())

    def found(self, index: int, text: str, run: str) -> bool:
        """Whether spelling `index` is in folded `text`, whose letters are `run`."""
        spelling = self.spellings[index]
        if not all(word in run for word in spelling.required):
            return False
        return any(each in run for each in spelling.runs) or (
            bool(spelling.words)
            and all(word in run for word in spelling.words)
            and self.words_near(index, text)
        )

    def words_near(self, index: int, text: str) -> bool:
        """Whether spelling `index`'s words stand near each other in folded `text`.

        Reached only when every word is somewhere in the text's letters, so the
        search for tokens ending in one of the words runs rarely.
        """
        words = self.spellings[index].words
        pattern = self._word_patterns.get(index)
        if pattern is None:
            alternatives = "|".join(map(re.escape, words))
            pattern = re.compile(rf"(?<!\S)\S*?(?:{alternatives})(?!\S)")
            self._word_patterns[index] = pattern
        for match in pattern.finditer(text):
            tokens = (token[0] for token in TOKEN_RE.finditer(text, match.start()))
            if chain_length(words, tokens):
                return True
        return False


def chain_length(words: tuple[str, ...], tokens: Iterable[str]) -> int:
    """How many of `tokens`, from the first, hold every word of a name with at
    most MAX_WORDS_BETWEEN other words between one and the next and no "and"
    (0 when they do not). Connectors are not counted, nor the name that follows
    a lineage word, compound or not: a nasab of any length ("نزار بن خالد بن
    عبد الله بن أبي بكر الحلبوني") still joins the given name to the family
    name."""
    wanted = set(words)
    between = 0
    ancestor = tail = False
    for position, token in enumerate(tokens):
        read = _word_readings(token, first=position == 0)
        if wanted & read:
            wanted -= read
            between, ancestor, tail = 0, False, False
            if not wanted:
                return position + 1
        elif position == 0 or token in _LIST_WORDS:
            return 0
        elif names_parent(token):
            # The word after one names an ancestor (identity.text.lineage).
            ancestor = True
        elif token in CONNECTORS:
            pass  # a kunya after a lineage word ("بن أبي بكر") names an ancestor
        elif ancestor:
            ancestor = token in _COMPOUND_LEADS
            tail = not ancestor
        elif tail and token in _COMPOUND_TAILS:
            tail = False
        elif read.isdisjoint(words):
            between += 1
            if between > MAX_WORDS_BETWEEN:
                return 0
    return 0


__all__ = [
    "BIDI_OVERRIDES",
    "has_override",
    "has_drawn_reading",
    "MIN_SPELLING_LETTERS",
    "Matcher",
    "decoded",
    "fold",
    "letters",
    "merged",
    "shown_text",
    "untagged",
    "readings",
    "views",
    "without_markup",
]
