"""Letters Unicode's data draws two ways: a second reading of a text, where one
exists.

`fold` reads each character one way. A few characters, most of them Arabic,
are drawn so that a reader may take them for another letter than the one `fold`
chose, and for those the matcher also reads the text a second way (`drawn`),
computed from Unicode's data:

- marks that are long vowels written small, read as the letter (ٰ the superscript
  alef, ٖ the subscript alef, ۥ the small waw, ۦ the small yeh…), from their
  names: مٰزن is مازن, though الرحمٰن is also الرحمن, which `fold` reads. The
  consonants written small (ۜ the small high seen, ؕ the small high tah…) are
  Quranic annotation signs above the word, not read into it;
- a letter followed by the dots that make another letter of it, read as that
  letter: the confusables data draws ش as س with three dots above (U+06DB) and
  ث as ى with them; and any mark Unicode names as dots (COMBINING DOT ABOVE,
  DIAERESIS BELOW, SOGDIAN COMBINING TWO DOTS ABOVE…) set on a letter's
  skeleton makes the letter those dots make of it (ر with a dot above is ز, ٮ
  with one is ن), from a reviewed table of the alphabet's skeletons and dots
  (`_SKELETONS`), which Unicode does not carry;
- an Arabic letter Unicode names as a skeleton with dots (ڗ REH WITH TWO DOTS
  ABOVE), read as the letter with dots in that place on it (ز);
- punctuation outside ASCII drawn like a letter (׀ like l), read as the break
  between words it also is;
- a character `fold` reads by its confusable prototype whose compatibility form
  reads otherwise, read as that form: ſ is f to the data, s to NFKC;
- a letter outside the Arabic alphabet that `fold` reads by its shape's group
  but the confusables data draws as another letter of the alphabet: ٮ (dotless
  beh) and ں (noon ghunna) are ب and ن to `fold`, ى to the data; ے (yeh barree)
  and the straight waw are ي and و to the data.
"""

import re
import unicodedata
from functools import cache
from itertools import combinations

import regex

from arabic import normalize

from .folding import ARABIC_ALPHABET, fold, letters, prototypes

_MARK_RE = regex.compile(r"[\p{Mn}\p{Lm}]")
_ARABIC_RE = regex.compile(r"\p{Script=Arabic}")
_LONG_VOWELS = frozenset("اوي")
_SMALL_LETTER_RE = regex.compile(
    r"ARABIC (?:LETTER )?(?:SUPERSCRIPT|SUBSCRIPT|SMALL(?: HIGH| LOW)?) (\w+(?: \w+)?)"
)
# Each letter of the alphabet drawn with dots: the skeletons it is drawn on, and
# its dots (how many, above or below). Reviewed by hand: Unicode names no letter
# by its skeleton and dots.
_SKELETONS = {
    "ب": ("ٮ", 1, "below"),
    "ت": ("ٮ", 2, "above"),
    "ث": ("ٮ", 3, "above"),
    "ن": ("ٮں", 1, "above"),
    "ي": ("ٮى", 2, "below"),
    "ج": ("ح", 1, "below"),
    "خ": ("ح", 1, "above"),
    "ذ": ("د", 1, "above"),
    "ز": ("ر", 1, "above"),
    "ش": ("س", 3, "above"),
    "ض": ("ص", 1, "above"),
    "ظ": ("ط", 1, "above"),
    "غ": ("ع", 1, "above"),
    "ف": ("ڡ", 1, "above"),
    "ق": ("ٯ", 2, "above"),
    "ة": ("ه", 2, "above"),
}
# Marks named as dots, and how many: "COMBINING DOT BELOW", "… TWO DOTS ABOVE".
_DOTS_RE = regex.compile(
    r"\b(?:(?P<one>DOT)|(?P<two>TWO DOTS|DOUBLE DOT|DIAERESIS)"
    r"|(?P<three>THREE DOTS|TRIPLE DOT|THREE-DOT NUKTA|TRIPLE UNDERDOT))\b"
)
# Names that say the dots sit on another sign (a vowel, an accent, a letter).
# (A vowel sign "WITH DOT ABOVE" still shows its dot: ARABIC FATHA WITH DOT ABOVE
# on ح is read as خ.)
_NOT_ONLY_DOTS_RE = regex.compile(
    r"ACCENT|ARROWHEAD|LETTER|RING|CIRCLE|HEAD|ZLAMA|PTHAHA"
    r"|ZQAPHA|HBASA|INSIDE|VERTICAL"
)
# Drawn as a dot though not named one: the filled high stop of Quranic copy.
_DRAWN_AS_A_DOT = {"\u06ec": (1, "above")}
# Arabic, its supplement and extended blocks, presentation forms A and B, and the
# mathematical alphabetic symbols.
_ARABIC_BLOCKS = (
    range(0x0600, 0x0700),
    range(0x0750, 0x0780),
    range(0x0870, 0x0900),
    range(0xFB50, 0xFE00),
    range(0xFE70, 0xFF00),
    range(0x1EE00, 0x1EF00),
)


def drawn(text: str) -> list[str]:
    """The other readings of `text`: each kind of second reading the module's
    docstring lists that `text` holds, and every combination of them, since one
    text may hold a small alef for ا and a ڧ for ق."""
    table = _tables()
    kinds = [
        read
        for present, read in (
            (table.small.search, lambda t: t.translate(table.small_letters)),
            (table.other.search, lambda t: t.translate(table.other_letters)),
            (table.broken.search, lambda t: t.translate(table.breaks)),
            (table.dotted.search, table.joined),
        )
        if present(text)
    ]
    found = []
    for count in range(1, len(kinds) + 1):
        for chosen in combinations(kinds, count):
            reading = text
            for read in chosen:
                reading = read(reading)
            found.append(reading)
    return found


def has_drawn_reading(text: str) -> bool:
    """Whether `text` holds a character `drawn` reads otherwise than `fold`."""
    return _tables().present.search(text) is not None


class _Tables:
    def __init__(self) -> None:
        self.small_letters = _small_letters()
        self.breaks = _breaks_drawn_as_letters()
        self.other_letters = {
            **_dotted_letters(),
            **_data_letters(),
            **_compatibility_letters(),
        }
        self.letters = {**self.small_letters, **self.other_letters, **self.breaks}
        self.small = _any_of(self.small_letters)
        self.other = _any_of(self.other_letters)
        self.broken = _any_of(self.breaks)
        # mark → {letter or look-alike before it: the letter both make}
        self.dotted_letters: dict[str, dict[str, str]] = {}
        for letter in ARABIC_ALPHABET:
            prototype = prototypes().get(letter, "")
            if len(prototype) != 2 or not _MARK_RE.match(prototype[1]):
                continue
            base, mark = prototype
            bases = self.dotted_letters.setdefault(mark, {})
            for each in _drawn_as(base):
                bases[each] = letter
        for mark, (count, place) in _dot_marks().items():
            bases = self.dotted_letters.setdefault(mark, {})
            # The letter with as many dots in that place first; else one with
            # dots there at all (ر with two dots above is still read as ز).
            ranked = sorted(_SKELETONS.items(), key=lambda item: item[1][1] != count)
            for letter, (skeletons, _dots, at) in ranked:
                if at == place:
                    for skeleton in skeletons:
                        for each in _drawn_as(skeleton):
                            bases.setdefault(each, letter)
        pairs = [
            f"[{re.escape(''.join(bases))}]{re.escape(mark)}"
            for mark, bases in self.dotted_letters.items()
        ]
        self.dotted = re.compile("|".join(pairs)) if pairs else re.compile("(?!)")
        marks = "".join(self.dotted_letters)
        self.present = re.compile(
            f"[{re.escape(''.join(map(chr, self.letters)) + marks)}]"
        )

    def joined(self, text: str) -> str:
        """`text` with each letter and the dots that make another of it joined."""
        return self.dotted.sub(lambda m: self.dotted_letters[m[0][-1]][m[0][:-1]], text)


@cache
def _dot_marks() -> dict[str, tuple[int, str]]:
    """Combining mark → the dots it draws: how many, and "above" or "below"."""
    found = dict(_DRAWN_AS_A_DOT)
    for code in range(0x0300, 0x20000):
        char = chr(code)
        if unicodedata.category(char) != "Mn":
            continue
        name = unicodedata.name(char, "")
        match = _DOTS_RE.search(name)
        if not match or _NOT_ONLY_DOTS_RE.search(name):
            continue
        count = 1 if match["one"] else 2 if match["two"] else 3
        below = any(word in name for word in ("BELOW", "UNDERDOT", "LOWER"))
        found[char] = (count, "below" if below else "above")
    return found


def _any_of(table: dict[int, str]) -> re.Pattern:
    return re.compile(f"[{re.escape(''.join(map(chr, table)))}]")


@cache
def _tables() -> _Tables:
    return _Tables()


def _arabic_characters():
    return (chr(code) for block in _ARABIC_BLOCKS for code in block)


def _drawn_as(base: str) -> set[str]:
    """`base` and the Arabic characters the data draws as it."""
    found = {base, normalize(base)}
    for char in _arabic_characters():
        if prototypes().get(char) in found:
            found.add(char)
    return found


def _small_letters() -> dict[int, str]:
    """Mark → the long vowel its name says it is, written small."""
    found = {}
    for char in _arabic_characters():
        match = _SMALL_LETTER_RE.fullmatch(unicodedata.name(char, ""))
        if not match or not _MARK_RE.match(char):
            continue
        try:
            letter = unicodedata.lookup(f"ARABIC LETTER {match[1]}")
        except KeyError:
            continue
        letter = normalize(unicodedata.normalize("NFKC", letter))
        if letter in _LONG_VOWELS:
            found[ord(char)] = letter
    return found


def _compatibility_letters() -> dict[int, str]:
    """Character `fold` reads by its confusable prototype → its compatibility
    form, when that is read otherwise: ſ is f to the confusables data, s to
    NFKC."""
    found = {}
    for char in prototypes():
        if len(char) != 1 or _ARABIC_RE.match(char):
            continue
        compatible = unicodedata.normalize("NFKC", char)
        read = letters(compatible)
        if compatible != char and read and read != letters(char):
            found[ord(char)] = compatible
    return found


def _breaks_drawn_as_letters() -> dict[int, str]:
    """Characters `fold` reads otherwise than as the break a reader may take them
    for between two words → a space: punctuation and spaces outside ASCII it reads
    as the letters the confusables data draws them as (׀ and ‖ as l), and the
    modifier letters it removes as no letter (ー, ː, ʼ), which join the letters on
    either side within a word. Not the tatweel, which draws the letters it stands
    between as joined ("بـسلمى" is بسلمى: with Salma)."""
    drawn_as_letters = {
        char
        for char in prototypes()
        if len(char) == 1
        and not char.isascii()
        and unicodedata.category(char)[0] in "PZ"
        and fold(char).strip()
    }
    return {ord(char): " " for char in drawn_as_letters | _unread_modifiers()}


def _unread_modifiers() -> set[str]:
    return {
        char
        for char in map(chr, range(0x80, 0x20000))
        if unicodedata.category(char) == "Lm"
        and not fold(char)
        and "TATWEEL" not in unicodedata.name(char, "")
    }


# An Arabic letter named as a skeleton with dots: "REH WITH TWO DOTS ABOVE".
_DOTTED_LETTER_RE = regex.compile(r"ARABIC LETTER (\w+) WITH (.+)")
# Dots named with something else set on the letter, which a reader sees.
_NOT_ONLY_DOTS_ON_LETTER_RE = regex.compile(
    r"HAMZA|MADDA|RING|TAH|V\b|STROKE|BAR|LOOP|TAIL|ALEF|NOON|WAVY|SMALL|INVERTED"
)


def _dotted_letters() -> dict[int, str]:
    """Arabic letter outside the alphabet drawn as a skeleton with dots → the
    letter of the alphabet with dots in the same place on that skeleton, the same
    number first (ڗ, ر with two dots above, is read as ز; ݗ, ح with two, as خ)."""
    found = {}
    for char in _arabic_characters():
        match = _DOTTED_LETTER_RE.fullmatch(unicodedata.name(char, ""))
        if char in ARABIC_ALPHABET or not match:
            continue
        dots = _DOTS_RE.search(match[2])
        if not dots or _NOT_ONLY_DOTS_ON_LETTER_RE.search(match[2]):
            continue
        try:
            skeleton = normalize(unicodedata.lookup(f"ARABIC LETTER {match[1]}"))
        except KeyError:
            continue
        count = 1 if dots["one"] else 2 if dots["two"] else 3
        place = "below" if "BELOW" in match[2] else "above"
        letters = sorted(
            (dots_of != count, letter)
            for letter, (skeletons, dots_of, at) in _SKELETONS.items()
            if at == place and skeleton in skeletons
        )
        if letters and fold(char) != letters[0][1]:
            found[ord(char)] = letters[0][1]
    return found


def _data_letters() -> dict[int, str]:
    """Arabic letter outside the alphabet → the letter of the alphabet the data
    draws it as, when `fold` reads it otherwise."""
    found = {}
    for char in _arabic_characters():
        if char in ARABIC_ALPHABET or not _ARABIC_RE.match(char):
            continue
        prototype = prototypes().get(char, "")
        letter = normalize(prototype)
        if len(prototype) == 1 and letter in ARABIC_ALPHABET and fold(char) != letter:
            found[ord(char)] = letter
    return found
