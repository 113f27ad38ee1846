"""Text as a reader takes it: every character folded to the letter it is drawn as.

`fold()` maps each character through one table, computed from Unicode's own data the
first time the character is met (then kept), never from a list of cases:

- NFKC comes first: it undoes presentation forms, ligatures, full-width,
  superscript, modifier and mathematical letters (ᴺ → N, ʰ → h), and circled,
  parenthesised and squared ones;
- invisible characters go: Default_Ignorable_Code_Point (U+3164 HANGUL FILLER,
  U+115F, U+FFA0, variation selectors…) and every format character (Cf: zero-width
  and bidi controls, soft hyphen), with controls, private-use and unassigned code
  points, combining marks (accents, tashkeel, Quranic marks) and the modifier
  letters NFKC leaves and no name makes a letter (Lm: tatweel, N'Ko lajanyalan
  U+07FA, ʼ);
- a symbol NFKC leaves that its name calls a decorated letter or digit is that
  letter or digit ("NEGATIVE SQUARED LATIN CAPITAL LETTER A", "REGIONAL INDICATOR
  SYMBOL LETTER A", "DINGBAT NEGATIVE CIRCLED DIGIT ONE");
- case is folded, and decimal digits of every script become 0-9 unless Unicode
  lists them as confusable with a letter (١ and ۱ are drawn as ا, ٥ as ه);
- an Arabic-script letter takes the project's Arabic folding (arabic.normalize: hamza
  forms, ى/ي, ة/ه, ی/ي, ک/ك …); a letter outside the Arabic alphabet then becomes the
  letter its name builds on ("… WITH …", "DOTLESS …": ࢲ ZAIN WITH INVERTED V
  ABOVE → ز, ٮ → ب) or, failing that, the letter whose shape it shares (its Arabic
  joining group: ې → ي, پ → ب). Arabic letters take no confusable prototype
  here: the data carries the dots of some as marks (ش is س with three dots
  above), which the removal of marks would erase, making ش and س one letter
  (identity.text.drawn reads a letter and its dots together); ا and ه, which the
  data draws as l and o, are joined to them by `look_alikes`;
- before anything else, a character outside the Arabic script and ASCII's letters
  and digits whose UTS #39 confusable prototype is made of letters or digits
  becomes it (Cyrillic а → a, ł → l, ø → o, ∣ and ⏽ → l, 𝐦 → rn), from the
  confusables data that `confusable_homoglyphs` carries; any other letter becomes
  the letter its name builds on ("LATIN LETTER SMALL CAPITAL N" → n);
- everything else (spaces, punctuation, symbols) becomes a space: a word boundary.

Last, letters a reader cannot tell apart become one (`look_alikes`): the
confusables data makes I, 1 and | one letter with l, and 0 one with O, case folding
joins I to i and O to o, and the data draws ا as l and ه as o; so l, L, i, I, 1,
|, ١ and ا are all read as ا, and o, O, 0, ٥ and ه as ه, in Latin words as in
Arabic ones ("N1zar", "Nlzar" and "NIZAR" are one spelling, "م1زن" and "م١زن"
are "مازن"). And sequences the data draws as one letter are read as it: "rn" is m.

The result holds lower-case letters and digits, and spaces between words.
"""

import string
import sys
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
_MODIFIER_RE = regex.compile(r"\p{Lm}")
_ARABIC_RE = regex.compile(r"\p{Script=Arabic}")
_SYMBOL_RE = regex.compile(r"[\p{S}\p{No}]")
_SEPARATOR_RE = regex.compile(r"[\p{P}\p{Z}\p{S}]")
_LETTER_OR_DIGIT_RE = regex.compile(r"[\p{L}\p{N}]")
_LETTERS_OR_DIGITS_RE = regex.compile(r"[\p{L}\p{N}]+")
# The Arabic alphabet once arabic.normalize has folded it: these letters stay.
ARABIC_ALPHABET = frozenset("ءابتثجحخدذرزسشصضطظعغفقكلمنهوي")
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
    (regex.compile(r"^MODIFIER LETTER (SMALL|CAPITAL) "), r"LATIN \1 LETTER "),
)
# A symbol's name ending in a letter or digit: "REGIONAL INDICATOR SYMBOL LETTER A".
_DECORATED_RE = regex.compile(r"\b(?:LETTER [A-Z]|DIGIT [A-Z]+)$")
# Unicode's confusables data wraps right-to-left characters in LEFT-TO-RIGHT MARKs.
_LRM = "\u200e"
# Deep enough for prototype → name → NFKC chains; a guard against cycles.
_MAX_DEPTH = 10


def fold(text: str) -> str:
    """`text` folded for matching: letters as read, words separated by spaces."""
    return read_together(text.translate(_TABLE)) if text else ""


def letters(text: str) -> str:
    """The folded letters and digits of `text`, run together."""
    return read_together(fold(text).replace(" ", ""))


def read_together(folded: str) -> str:
    """Folded text with each sequence of letters that is drawn as one letter read
    as that letter ("rn" as m)."""
    for sequence, letter in sequences():
        if sequence in folded:
            folded = folded.replace(sequence, letter)
    return folded


def read_together_with_origin(folded: str, origin: list[int]) -> tuple[str, list[int]]:
    """`read_together(folded)` and, for each of its characters, the `origin` of the
    character it came from (a sequence's first)."""
    for sequence, letter in sequences():
        if sequence not in folded:
            continue
        pieces, origins, last = [], [], 0
        start = folded.find(sequence)
        while start != -1:
            pieces += [folded[last:start], letter]
            origins += [*origin[last:start], *[origin[start]] * len(letter)]
            last = start + len(sequence)
            start = folded.find(sequence, last)
        pieces.append(folded[last:])
        folded, origin = "".join(pieces), [*origins, *origin[last:]]
    return folded, origin


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
        classes = look_alikes()
        text = "".join(classes.get(each, each) for each in text)
        self[code] = text
        return text


_TABLE = _FoldTable()


def drawn_as(char: str) -> str:
    """The letters `char` is drawn as before the look-alike classes join some
    Latin letters to Arabic ones: "a" for Cyrillic а, "z" for ᴢ."""
    return _fold_char(char, 0)


def _fold_char(char: str, depth: int) -> str:
    if depth > _MAX_DEPTH:
        return char
    if char.isspace():
        return " "
    prototype = _letter_prototype(char)
    if prototype:
        folded = _fold_text(prototype, depth)
        if not folded.strip() and _SEPARATOR_RE.match(char):
            # A dash drawn like a length mark (— like ー, which is not read) still
            # parts the words on either side.
            return " "
        if not folded.isascii() and not _ARABIC_RE.match(char):
            # Drawn like a letter of another script that reads as no Latin one
            # (ᴍ like Cyrillic м), its name says which Latin letter it is.
            named = _fold_text(_named_base(char), depth)
            if named and named.isascii():
                return named
        return folded
    compatible = unicodedata.normalize("NFKC", char)
    if compatible != char and not _ARABIC_RE.match(char):
        return _fold_text(compatible, depth)
    if _INVISIBLE_RE.match(char) or char == _HIGH_HAMZA:
        # A modifier letter NFKC leaves may still be named after a letter
        # ("MODIFIER LETTER SMALL Q"); other modifiers (tatweel, ʼ) are not read.
        named = _named_base(char) if _MODIFIER_RE.match(char) else ""
        return _fold_text(named, depth) if named else ""
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


_BREAK_CATEGORY_RE = regex.compile(r"[PZS].|Lm")


@cache
def separators() -> frozenset[str]:
    """Every character outside ASCII a reader may take for a break between
    words: punctuation, spaces, symbols and modifier letters (Unicode's P, Z, S
    and Lm categories: a dash, ー, ː) that fold to no letter or digit."""
    return frozenset(
        char
        for char in map(chr, range(0x80, sys.maxunicode + 1))
        if _BREAK_CATEGORY_RE.match(unicodedata.category(char))
        and not fold(char).strip()
    )


def _letter_prototype(char: str) -> str:
    """`char`'s UTS #39 prototype when it is made of letters or digits and `char`
    is not an ASCII letter or digit (those are read through `look_alikes` and
    `sequences`) nor Arabic (see the module's docstring); else ""."""
    if char.isascii() and char.isalnum():
        return ""
    prototype = _confusable_prototypes().get(char, "")
    if not prototype or not _LETTERS_OR_DIGITS_RE.fullmatch(prototype):
        return ""
    compatible = unicodedata.normalize("NFKC", char)
    if compatible.isascii() and compatible.isalnum() and not prototype.isascii():
        return ""  # ˢ is s, not the syllabic ᣵ the data pairs it with
    return prototype


def _fold_text(text: str, depth: int) -> str:
    return "".join(_fold_char(each, depth + 1) for each in text)


def _arabic_letter(char: str) -> str:
    """The Arabic letter `char` is read as (`char` itself when it is one)."""
    if unicodedata.decimal(char, None) is not None:
        return _digit(char)
    if unicodedata.normalize("NFKC", char) == char:
        folded = normalize(char)
        if folded != char:
            return folded
    if char in ARABIC_ALPHABET:
        return char
    return (
        _named_base(char)
        or _joining_group_letter(char)
        or _qualified_letter(char)
        or unicodedata.normalize("NFKC", char)
    )


def _qualified_letter(char: str) -> str:
    """The letter an Arabic letter's name qualifies ("ARABIC LETTER AFRICAN
    NOON", "… LOW ALEF", "… KASHMIRI YEH" are ن, ا, ي), or ""."""
    words = unicodedata.name(char, "").split()
    if words[:2] != ["ARABIC", "LETTER"]:
        return ""
    for start in range(3, len(words)):
        try:
            letter = unicodedata.lookup(" ".join(["ARABIC", "LETTER", *words[start:]]))
        except KeyError:
            continue
        if letter != char:
            return letter
    return ""


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
    if unicodedata.decimal(char, None) is not None:
        return _digit(char)
    if _SYMBOL_RE.match(char):
        return _decorated(char) or char
    if not _LETTER_OR_DIGIT_RE.match(char):
        return char
    return _confusable_prototypes().get(char) or _named_base(char) or char


def _digit(char: str) -> str:
    """A decimal digit as read: the letter Unicode lists it as confusable with
    (١ → l, ٥ → o), or its value."""
    prototype = prototypes().get(char, "")
    if regex.fullmatch(r"\p{L}", prototype):
        return prototype
    return str(unicodedata.decimal(char))


def _decorated(char: str) -> str:
    """The letter or digit a symbol's name says it draws, or "": the name without
    its leading words of decoration ("NEGATIVE SQUARED LATIN CAPITAL LETTER A" →
    "LATIN CAPITAL LETTER A"), a bare "LETTER A" being the Latin capital."""
    name = unicodedata.name(char, "")
    if not _DECORATED_RE.search(name):
        return ""
    words = name.split()
    for start in range(1, len(words)):
        tail = " ".join(words[start:])
        if regex.fullmatch(r"LETTER [A-Z]", tail):
            tail = f"LATIN CAPITAL {tail}"
        try:
            found = unicodedata.lookup(tail)
        except KeyError:
            continue
        if _LETTER_OR_DIGIT_RE.match(found):
            return found
    return ""


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
        if letter not in ARABIC_ALPHABET:
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
    """Character → its UTS #39 prototype, Arabic script excepted (see the module's
    docstring)."""
    return {
        char: prototype
        for char, prototype in prototypes().items()
        if not _ARABIC_RE.match(char)
    }


@cache
def look_alikes() -> dict[str, str]:
    """ASCII letter or digit, or letter of the Arabic alphabet → the one letter its
    class of look-alikes is read as, for those that share their class.

    Classes join each character to its case and to its UTS #39 prototype when that
    is one of them (I → l, 0 → O, ا → l, ه → o). A class is read as its Arabic
    letter, so that Arabic words keep their letters for the clitics and the
    article to be read; else as its first small Latin letter.
    """
    members = [*string.ascii_letters, *string.digits, "|", *sorted(ARABIC_ALPHABET)]
    parent = {char: char for char in members}

    def root(char: str) -> str:
        while parent[char] != char:
            char = parent[char]
        return char

    drawn_as = prototypes()
    for char in members:
        for other in (char.casefold(), drawn_as.get(char, "")):
            if other in parent:
                parent[root(other)] = root(char)
    classes: dict[str, list[str]] = defaultdict(list)
    for char in members:
        classes[root(char)].append(char)
    read_as = {}
    for group in classes.values():
        if len(group) > 1:
            letter = min(group, key=_reading_rank)
            read_as.update({char: letter for char in group if char != letter})
    return read_as


def _reading_rank(char: str) -> tuple[bool, bool, str]:
    return (char not in ARABIC_ALPHABET, not char.islower(), char)


@cache
def sequences() -> tuple[tuple[str, str], ...]:
    """(folded sequence, the letter it is read as), for each ASCII letter whose
    UTS #39 prototype is several letters (m → "rn")."""
    found = []
    for char in string.ascii_lowercase:
        prototype = prototypes().get(char, "")
        if len(prototype) > 1 and prototype.isascii() and prototype.isalpha():
            found.append((prototype.translate(_TABLE), char.translate(_TABLE)))
    return tuple(found)


@cache
def prototypes() -> dict[str, str]:
    """Character → its UTS #39 prototype, for every character Unicode lists as
    confusable with another.

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
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype: the centre of its group
        (other,) = others
        if len(neighbours[other]) > 1 or len(other) > 1 or _rank(other) < _rank(char):
            prototypes[char] = other
    return prototypes


def _rank(char: str) -> tuple[bool, bool, int]:
    return (not char.isascii(), not regex.match(r"\p{Latin}", char), ord(char[0]))
