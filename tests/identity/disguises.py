"""Disguises of a legal spelling, generated from the data that defines each family.

Nothing here lists an example: each family is read out of Unicode's data (the
confusables that `confusable_homoglyphs` carries, the compatibility decompositions
and character names in `unicodedata`, Arabic joining groups) or out of how names
are built (lineage chains), so the next adversary's pick is already among them.

`look_alikes(letter)` gives every character or sequence UTS #39 puts in a letter's
group; `FAMILIES` are hypothesis strategies that turn a whole spelling into a
disguised one, one family each.
"""

import sys
import unicodedata
from collections import defaultdict
from functools import cache

import regex
from confusable_homoglyphs.confusables import confusables_data
from hypothesis import strategies as st

from identity.text.drawn import _SKELETONS, _dot_marks
from identity.text.folding import fold
from identity.text.lineage import PARENT_WORDS, latin_spellings

_LRM = "\u200e"
_ARABIC_ALPHABET = "ءابتثجحخدذرزسشصضطظعغفقكلمنهوي"
# Characters a reader does not see, from Unicode's properties.
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]")
_ARABIC_MARK = regex.compile(r"(?V1)[\p{Script=Arabic}&&\p{Mn}]")


@cache
def _all_characters() -> list[str]:
    return [
        chr(code)
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) not in ("Cs", "Co", "Cn")
    ]


@cache
def _confusable_groups() -> dict[str, set[str]]:
    """Each character or sequence → every other in its UTS #39 group: those that
    share its prototype (the data lists each source with its prototype)."""
    neighbours: dict[str, set[str]] = defaultdict(set)
    for char, glyphs in confusables_data.items():
        for glyph in glyphs:
            a, b = char.replace(_LRM, ""), glyph["c"].replace(_LRM, "")
            neighbours[a].add(b)
            neighbours[b].add(a)
    groups: dict[str, set[str]] = {}
    for char in neighbours:
        # Two steps reach every member of a star through its prototype.
        group = set(neighbours[char])
        for other in neighbours[char]:
            group |= neighbours[other]
        group.discard(char)
        groups[char] = group
    return groups


@cache
def _compatibility_forms() -> dict[str, set[str]]:
    """Letter or digit → the characters whose NFKC is it (full-width, circled,
    mathematical, superscript, modifier letters, presentation forms…)."""
    forms: dict[str, set[str]] = defaultdict(set)
    for char in _all_characters():
        compatible = unicodedata.normalize("NFKC", char)
        if compatible != char and len(compatible) == 1:
            forms[compatible].add(char)
    return forms


@cache
def _named_forms() -> dict[str, set[str]]:
    """Latin capital letter or digit → the symbols whose names draw it and that
    NFKC leaves ("NEGATIVE SQUARED LATIN CAPITAL LETTER A", "REGIONAL INDICATOR
    SYMBOL LETTER A", "DINGBAT NEGATIVE CIRCLED DIGIT ONE")."""
    forms: dict[str, set[str]] = defaultdict(set)
    latin = regex.compile(r"(?:LATIN CAPITAL )?LETTER ([A-Z])$")
    for char in _all_characters():
        if not regex.match(r"[\p{S}\p{No}]", char):
            continue
        if unicodedata.normalize("NFKC", char) != char:
            continue
        name = unicodedata.name(char, "")
        found = latin.search(name)
        if found and "LATIN" in name or (found and "INDICATOR" in name):
            forms[found[1]].add(char)
    return forms


@cache
def _arabic_forms() -> dict[str, set[str]]:
    """Letter of the Arabic alphabet → the letters a reader takes for it: those
    named after it with something added ("ARABIC LETTER NOON WITH DOT BELOW"),
    the other letters of the joining group it names (ک in Kaf's group, ی in
    Yeh's),
    and the digits Unicode draws like it (١ like ا, ٥ like ه)."""
    forms: dict[str, set[str]] = defaultdict(set)
    names = {unicodedata.name(letter): letter for letter in _ARABIC_ALPHABET}
    for code in [
        *range(0x0620, 0x0700),
        *range(0x0750, 0x0780),
        *range(0x08A0, 0x08D3),
    ]:
        char = chr(code)
        name = unicodedata.name(char, "")
        base = regex.sub(r" WITH .*", "", name)
        if base != name and base in names:
            forms[names[base]].add(char)
            continue  # named after its letter: read as it, whatever its group
        if " WITH " in name:
            continue  # named after another letter: read as that one
        for letter in _ARABIC_ALPHABET:
            group = unicodedata.name(letter).removeprefix("ARABIC LETTER ")
            group = group.title().replace(" ", "_")
            try:
                if regex.match(rf"\p{{Joining_Group={group}}}", char) and (
                    char not in _ARABIC_ALPHABET
                ):
                    forms[letter].add(char)
            except regex.error:
                continue
    groups = _confusable_groups()
    for letter in _ARABIC_ALPHABET:
        for other in groups.get(letter, ()):
            if len(other) == 1 and unicodedata.decimal(other, None) is not None:
                forms[letter].add(other)
    forms["ا"].add("\u0670")  # SUPERSCRIPT ALEF: a small letter, read as alef
    return forms


def _replaced(spelling: str, family) -> st.SearchStrategy[str]:
    """A strategy replacing each letter of `spelling` by one of `family(letter)`,
    every position drawn independently (some keep their letter)."""
    parts = [
        st.sampled_from((char, *family(char))) if family(char) else st.just(char)
        for char in spelling
    ]
    return st.tuples(*parts).map("".join)


def look_alikes(letter: str) -> tuple[str, ...]:
    return tuple(
        each
        for each in _confusable_groups().get(letter, ())
        if not _INVISIBLE.fullmatch(each)
    )


def confusable(spelling: str) -> st.SearchStrategy[str]:
    """Each letter, or each pair of letters the data draws as one, replaced by a
    member of its UTS #39 group (cross-script, ASCII look-alikes, rn for m)."""
    pairs = [
        (spelling[i : i + 2], others)
        for i in range(len(spelling) - 1)
        if (others := look_alikes(spelling[i : i + 2]))
    ]
    letters = _replaced(spelling, look_alikes)
    if not pairs:
        return letters
    return st.one_of(
        letters,
        st.sampled_from(pairs).flatmap(
            lambda pair: st.sampled_from(pair[1]).map(
                lambda glyph: spelling.replace(pair[0], glyph, 1)
            )
        ),
    )


def compatible_forms(char: str) -> tuple[str, ...]:
    """The compatibility and decorated forms of `char`, of either case."""
    found = set()
    for each in {char, char.upper()}:
        found |= _compatibility_forms().get(each, set())
        if each.isascii():
            found |= _named_forms().get(each.upper(), set())
    return tuple(sorted(found))


def compatible(spelling: str) -> st.SearchStrategy[str]:
    """Each letter replaced by a compatibility or decorated form of it."""
    return _replaced(spelling, compatible_forms)


def arabic(spelling: str) -> st.SearchStrategy[str]:
    """Arabic letters in disguise: variant letters, presentation forms, digits
    drawn like letters, the superscript alef, tatweel and runs of marks."""

    def forms(char: str) -> tuple[str, ...]:
        found = set(_arabic_forms().get(char, set()))
        found |= _compatibility_forms().get(char, set())
        return tuple(sorted(found))

    # Marks that decorate a word; those that are letters written small (ٰ, ٖ)
    # are the letters' own disguises, drawn by `forms`.
    marks = [
        c
        for c in map(chr, range(0x0610, 0x0670))
        if _ARABIC_MARK.match(c) and "ALEF" not in unicodedata.name(c)
    ]
    decoration = st.text(st.sampled_from(["\u0640", *marks]), max_size=3)
    return st.tuples(
        _replaced(spelling, forms),
        st.lists(decoration, min_size=len(spelling), max_size=len(spelling)),
    ).map(lambda pair: _interleaved(pair[0], pair[1]))


def _interleaved(text: str, after: list[str]) -> str:
    return "".join(char + extra for char, extra in zip(text, after, strict=False))


def parent_words(arabic: bool) -> list[str]:
    """The words naming a parent (identity.text.lineage's table): in Arabic, and
    abbreviated; or in every Latin way the romanization tables write them, and
    in the press's translations."""
    if arabic:
        return [*PARENT_WORDS, "ب."]
    romanized = [
        spelling for word in PARENT_WORDS for spelling in latin_spellings(word)
    ]
    return [*romanized, "b.", "son of", "daughter of", "fils de"]


def lineage(spelling: str, ancestors: list[str]) -> st.SearchStrategy[str]:
    """A nasab of any length between the given name and the family name, each
    ancestor named in one word or in a compound (عبد الكريم, نور الدين, a kunya),
    after any word naming a parent."""
    given, _, family = spelling.partition(" ")
    arabic = bool(regex.match(r"\p{Arabic}", spelling))
    word = st.sampled_from(parent_words(arabic))
    compounds = (
        ["عبد {}", "عبد ال{}", "أبي {}", "{} الدين", "{} الله"]
        if arabic
        else ["Abdel {}", "Abdul {}", "Abd al-{}", "Abi {}", "{} el-Din", "{} Allah"]
    )
    compound = st.tuples(st.sampled_from(compounds), st.sampled_from(ancestors))
    ancestor = st.one_of(
        st.sampled_from(ancestors), compound.map(lambda pair: pair[0].format(pair[1]))
    )
    chain = st.lists(st.tuples(word, ancestor), min_size=1, max_size=6)
    return chain.map(
        lambda links: " ".join([given, *(f"{w} {n}" for w, n in links), family])
    )


@cache
def word_breaks() -> list[str]:
    """Every character outside ASCII Unicode calls punctuation or a space (its P
    and Z categories), those drawn like a letter (׀ like l) among them, and every
    modifier letter (Lm) read as no letter (ー, ː, ʼ; not ʰ, which its name makes
    h, nor ˁ, which stands for ع, nor the tatweel, which joins the letters it
    stands between)."""
    return [
        char
        for char in _all_characters()
        if not char.isascii()
        and (
            unicodedata.category(char)[0] in "PZ"
            or (
                unicodedata.category(char) == "Lm"
                and not fold(char)
                and "TATWEEL" not in unicodedata.name(char)
            )
        )
    ]


@cache
def dotted_letters() -> list[tuple[str, str]]:
    """(letter of the alphabet, an Arabic letter Unicode names as that letter's
    skeleton with two or three dots in the same place: "REH WITH TWO DOTS
    ABOVE" for ز), from the names and the reviewed skeletons."""
    named = {}
    for letter, (skeletons, _count, place) in _SKELETONS.items():
        for skeleton in skeletons:
            named.setdefault((unicodedata.name(skeleton), place), letter)
    found = []
    for char in _all_characters():
        match = regex.fullmatch(
            r"(ARABIC LETTER \w+) WITH (TWO|THREE) DOTS(?: VERTICALLY| VERTICAL)?"
            r" (ABOVE|BELOW)",
            unicodedata.name(char, ""),
        )
        if match:
            letter = named.get((match[1], match[3].lower()))
            if letter:
                found.append((letter, char))
    return found


@cache
def qualified_letters() -> list[tuple[str, str]]:
    """(letter of the alphabet, an Arabic letter whose name only qualifies it:
    "ARABIC LETTER AFRICAN NOON" for ن), from the names."""
    names = {unicodedata.name(letter): letter for letter in _ARABIC_ALPHABET}
    found = []
    for char in _all_characters():
        words = unicodedata.name(char, "").split()
        if words[:3] in (["ARABIC", "LETTER"], ["ARABIC", "LETTER", "DOTLESS"]):
            continue
        if words[:2] != ["ARABIC", "LETTER"] or unicodedata.category(char) != "Lo":
            continue
        base = " ".join(["ARABIC", "LETTER", *words[3:]])
        if len(words) > 3 and base in names and " WITH " not in f" {base} ":
            found.append((names[base], char))
    return found


def decorated(spelling: str) -> st.SearchStrategy[str]:
    """Case changed, invisible characters and separators put between letters."""
    invisible = [
        c
        for c in map(chr, [*range(0x2000, 0x2070), 0x00AD, 0x3164, 0xFEFF, 0x180E])
        if _INVISIBLE.match(c) and c not in "\u202d\u202e"
    ]
    separators = st.sampled_from(["", "", "-", ".", "_", *invisible])
    return st.tuples(
        st.sampled_from(
            [spelling, spelling.upper(), spelling.title(), spelling.lower()]
        ),
        st.lists(separators, min_size=len(spelling), max_size=len(spelling)),
    ).map(lambda pair: _interleaved(pair[0], pair[1]))


def dotted_skeletons(spelling: str):
    """Every spelling with one dotted letter written as its skeleton and a mark
    Unicode names as dots in the same place (ز as ر + COMBINING DOT ABOVE, or
    + COMBINING DIAERESIS; ن as ٮ + any mark of one dot above), one letter at a
    time; as many dots as another letter has on that skeleton are that letter's."""
    marks = _dot_marks()
    for position, letter in enumerate(spelling):
        skeletons, count, place = _SKELETONS.get(letter, ("", 0, ""))
        for skeleton in skeletons:
            others = {
                dots
                for other, (shapes, dots, at) in _SKELETONS.items()
                if other != letter and skeleton in shapes and at == place
            }
            for mark, (dots, at) in marks.items():
                if at == place and (dots == count or dots not in others):
                    before, after = spelling[:position], spelling[position + 1 :]
                    yield before + skeleton + mark + after


FAMILIES = {
    "confusable": confusable,
    "compatible": compatible,
    "arabic": arabic,
    "decorated": decorated,
}
