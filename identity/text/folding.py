"""Text as a reader takes it: every character folded to the letter it is drawn as.

`fold()` maps each character through one table, computed from Unicode's own data the
first time the character is met (then kept), never from a list of cases:

- invisible characters go: Default_Ignorable_Code_Point (U+3164 HANGUL FILLER,
  U+115F, U+FFA0, variation selectors…) and every format character (Cf: zero-width
  and bidi controls, soft hyphen), with controls, private-use and unassigned code
  points, combining marks (accents, tashkeel, Quranic marks) and modifier letters
  (Lm: tatweel, N'Ko lajanyalan U+07FA, ʼ);
- case is folded, NFKC undoes presentation forms, ligatures, full-width and
  mathematical letters, and decimal digits of every script become 0-9;
- an Arabic-script letter takes the project's Arabic folding (arabic.normalize: hamza
  forms, ى/ي, ة/ه, ی/ي, ک/ك …); a letter outside the Arabic alphabet then becomes the
  letter whose shape it shares (its Arabic joining group: ې → ي, ٮ → ب, ڹ → ن,
  ٵ → ا, پ → ب) or, failing that, the letter its name builds on ("… WITH …",
  "DOTLESS …"). Arabic letters take no confusable prototype: Unicode's are Latin
  for some (ا → l, ه → o, which would fold real Arabic into Latin) and carry the
  dots as marks for others (ش → س with three dots above), which the removal of
  marks would erase, making ش and س one letter;
- any other letter or digit becomes its UTS #39 confusable prototype (Cyrillic а →
  a, ł → l, ø → o), from the confusables data that `confusable_homoglyphs` carries,
  or the letter its name builds on ("LATIN LETTER SMALL CAPITAL N" → n);
- everything else (spaces, punctuation, symbols) becomes a space: a word boundary.

The result holds lower-case letters and digits, and spaces between words.
"""

import unicodedata
from collections import defaultdict
from functools import cache

import regex
from confusable_homoglyphs.confusables import confusables_data

from arabic import normalize

# Characters nobody sees: removed, so they neither hide a name nor split a word.
_INVISIBLE_RE = regex.compile(
    r"[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{Co}\p{Cn}\p{Cs}"
    r"\p{Mn}\p{Me}\p{Lm}]"
)
_ARABIC_RE = regex.compile(r"\p{Script=Arabic}")
_LETTER_OR_DIGIT_RE = regex.compile(r"[\p{L}\p{N}]")
# The Arabic alphabet once arabic.normalize has folded it: these letters stay.
_ARABIC_ALPHABET = frozenset("ءابتثجحخدذرزسشصضطظعغفقكلمنهوي")
# U+0674 ARABIC LETTER HIGH HAMZA is the spacing hamza NFKC leaves after ٵ ٶ ٸ
# (ا + U+0674): removed like the hamza marks arabic.normalize removes.
_HIGH_HAMZA = "\u0674"
# Names that build on another letter's name: "LATIN SMALL LETTER L WITH STROKE",
# "ARABIC LETTER DOTLESS BEH", "LATIN LETTER SMALL CAPITAL N".
_NAME_RULES = (
    (regex.compile(r" WITH .*"), ""),
    (regex.compile(r"\b(?:DOTLESS|BARRED) "), ""),
    (regex.compile(r"^(\w+) LETTER SMALL CAPITAL "), r"\1 SMALL LETTER "),
    (regex.compile(r"^(\w+) SMALL CAPITAL LETTER "), r"\1 SMALL LETTER "),
)
# Unicode's confusables data wraps right-to-left characters in LEFT-TO-RIGHT MARKs.
_LRM = "\u200e"
# Deep enough for prototype → name → NFKC chains; a guard against cycles.
_MAX_DEPTH = 10


def fold(text: str) -> str:
    """`text` folded for matching: letters as read, words separated by spaces."""
    return text.translate(_TABLE) if text else ""


def letters(text: str) -> str:
    """The folded letters and digits of `text`, run together."""
    return fold(text).replace(" ", "")


class _FoldTable(dict):
    """Code point → its fold, each computed once, on first use (str.translate reads
    it like any mapping)."""

    def __missing__(self, code: int) -> str:
        # A fold is its own fold: a prototype may fold further, and a few pairs
        # fold into each other (龟 has the prototype ⻳, whose NFKC is 龟). Fold
        # again until nothing changes; a cycle settles on its smallest member.
        seen: list[str] = []
        text = chr(code)
        while text not in seen and len(seen) <= _MAX_DEPTH:
            seen.append(text)
            text = "".join(_fold_char(each, 0) for each in text)
        if text in seen and seen[-1] != text:
            text = min(seen[seen.index(text) :])
        self[code] = text
        return text


_TABLE = _FoldTable()


def _fold_char(char: str, depth: int) -> str:
    if depth > _MAX_DEPTH:
        return char
    if char.isspace():
        return " "
    if _INVISIBLE_RE.match(char) or char == _HIGH_HAMZA:
        return ""
    folded = char.casefold()
    if folded != char:
        lower = _fold_text(folded, depth)
        # A capital may look like a Latin capital its small letter does not
        # resemble (Cyrillic М is M, м is not m): then its own prototype wins.
        prototype = _confusable_prototypes().get(char)
        if prototype and not lower.isascii():
            upper = _fold_text(prototype, depth)
            if upper.isascii():
                return upper
        return lower
    if _ARABIC_RE.match(char) and _LETTER_OR_DIGIT_RE.match(char):
        folded = _arabic_letter(char)
    elif not char.isascii():
        folded = _other_letter(char)
    if folded != char:
        return _fold_text(folded, depth)
    return char if _LETTER_OR_DIGIT_RE.match(char) else " "


def _fold_text(text: str, depth: int) -> str:
    return "".join(_fold_char(each, depth + 1) for each in text)


def _arabic_letter(char: str) -> str:
    """The Arabic letter `char` is read as (`char` itself when it is one)."""
    if unicodedata.normalize("NFKC", char) == char:
        folded = normalize(char)
        if folded != char:
            return folded
    if char in _ARABIC_ALPHABET:
        return char
    return (
        _joining_group_letter(char)
        or _named_base(char)
        or unicodedata.normalize("NFKC", char)
    )


def _other_letter(char: str) -> str:
    """The letter or digit `char` is read as, outside the Arabic script."""
    compatible = unicodedata.normalize("NFKC", char)
    if compatible != char:
        return compatible
    bare = "".join(
        c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c)
    )
    if bare and bare != char:
        return bare
    digit = unicodedata.decimal(char, None)
    if digit is not None:
        return str(digit)
    if not _LETTER_OR_DIGIT_RE.match(char):
        return char
    return _confusable_prototypes().get(char) or _named_base(char) or char


def _named_base(char: str) -> str:
    """The character whose name `char`'s name builds on, or ""."""
    name = unicodedata.name(char, "")
    base = name
    for pattern, replacement in _NAME_RULES:
        base = pattern.sub(replacement, base)
    if not name or base == name:
        return ""
    try:
        return unicodedata.lookup(base)
    except KeyError:
        return ""


def _joining_group_letter(char: str) -> str:
    """The letter of the Arabic alphabet that shares `char`'s shape (its joining
    group in Unicode's ArabicShaping data), or ""."""
    for pattern, letter in _joining_groups():
        if pattern.match(char):
            return letter
    return ""


@cache
def _joining_groups() -> list[tuple[regex.Pattern, str]]:
    """(pattern matching a joining group, the alphabet's letter of that group).

    A group is named after its plain letter ("ARABIC LETTER BEH" gives the group
    Beh, "ARABIC LETTER FARSI YEH" Farsi_Yeh); groups whose letter arabic.normalize
    does not fold into the alphabet (Gaf, Yeh_Barree) are left out.
    """
    groups = {}
    for code in range(0x0620, 0x0700):
        name = unicodedata.name(chr(code), "")
        if not name.startswith("ARABIC LETTER ") or " WITH " in name:
            continue
        letter = normalize(chr(code))
        if letter not in _ARABIC_ALPHABET:
            continue
        group = name.removeprefix("ARABIC LETTER ").title().replace(" ", "_")
        try:
            pattern = regex.compile(rf"\p{{Joining_Group={group}}}")
        except regex.error:  # a letter that names no group (TEH is in Beh's)
            continue
        groups.setdefault(group, (pattern, letter))
    return list(groups.values())


@cache
def _confusable_prototypes() -> dict[str, str]:
    """Character → its UTS #39 prototype, for every character Unicode lists as
    confusable with another, Arabic script excepted.

    `confusable_homoglyphs` stores each line of confusables.txt (source → prototype)
    both ways, so the direction is read back from the shape of the data: a
    prototype is never a source, so each group of look-alikes is a star around its
    prototype, and a source is a single code point. A pair is a star of two: its
    prototype is taken as the one more likely to be typed (ASCII, then Latin).
    """
    neighbours: dict[str, set[str]] = defaultdict(set)
    for char, glyphs in confusables_data.items():
        for glyph in glyphs:
            neighbours[char.replace(_LRM, "")].add(glyph["c"].replace(_LRM, ""))
    prototypes = {}
    for char, others in neighbours.items():
        if len(char) != 1 or len(others) != 1 or _ARABIC_RE.match(char):
            continue  # a prototype (the centre of its group), or Arabic
        (other,) = others
        if len(neighbours[other]) > 1 or len(other) > 1 or _rank(other) < _rank(char):
            prototypes[char] = other
    return prototypes


def _rank(char: str) -> tuple[bool, bool, int]:
    return (not char.isascii(), not regex.match(r"\p{Latin}", char), ord(char[0]))
