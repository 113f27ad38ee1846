"""The words of a lineage (nasab): those that name a parent, however written.

An Arabic name may carry its ancestors between the given name and the family
name: «سالم بن ناصر العتيبي», «مازن ولد خالد الخطيب» (the Maghrebi «ولد», ould).
The matchers pass over the ancestors after a word naming a parent; which words
do is read here from one table, `PARENT_WORDS`: each in Arabic letters, its
abbreviation (its first letter: «ب.», "b."), every Latin spelling the
romanization tables give it (identity.text.romanization: each letter's ways
with any short vowel between and around, "bin", "ebn", "ibnu", "ould",
"weld"), and the reviewed translations a press writes ("son of", "fils de").

A lineage also gives the name its bearer is commonly called by: the given name
and the family name without the ancestors between («سالم العتيبي»), which
`short_form` makes of a spelling.
"""

import itertools
from functools import cache

from .folding import fold
from .romanization import ROMANIZATIONS, SHORT_VOWELS

# Son of, daughter of, and son of in the Maghreb.
PARENT_WORDS = ("بن", "ابن", "بنت", "ولد")
# How the English, French and German press translate them ("Mazen, son of
# Khalid"); the "of", "de" or "von" after one is taken for the ancestor's name.
_TRANSLATIONS = ("son", "daughter", "fils", "fille", "sohn", "tochter")
# The first word of an ancestor's compound name («عبد الله»).
_COMPOUND_LEADS = ("عبد", "abd", "abdel", "abdul", "abdal", "abdoul", "abdu")


@cache
def parent_words() -> frozenset[str]:
    """Every written form of a word naming a parent, folded (identity.text.fold)."""
    found = set()
    for word in PARENT_WORDS:
        found.add(fold(word))
        found.add(fold(word.removeprefix("ا")[0]))
        found |= {fold(spelling) for spelling in latin_spellings(word)}
    found |= {fold(word) for word in _TRANSLATIONS}
    found.add(fold("b"))
    return frozenset(found)


def names_parent(folded_word: str) -> bool:
    """Whether a folded word is one naming a parent."""
    return folded_word in parent_words()


def latin_spellings(word: str) -> list[str]:
    """Every way the romanization tables write an Arabic `word`: each letter in
    each of its ways, any short vowel (or none) between two letters and around
    the word."""
    ways = [ROMANIZATIONS.get(letter, ("",)) for letter in word]
    vowels = [SHORT_VOWELS] * (len(ways) + 1)
    parts = [part for pair in itertools.zip_longest(vowels, ways) for part in pair]
    return ["".join(choice) for choice in itertools.product(*filter(None, parts))]


def with_short_forms(spellings: list[str]) -> list[str]:
    """`spellings`, each followed by its `short_form` when it has one: what the
    gate looks for."""
    found = [form for each in spellings for form in (each, short_form(each)) if form]
    return list(dict.fromkeys(found))


def short_form(spelling: str) -> str | None:
    """The given name and the family name of a spelling with a lineage between
    them («سالم بن ناصر العتيبي» → «سالم العتيبي»), or None when it has none,
    or no family name follows its last ancestor."""
    words = spelling.split()
    folded = [fold(word) for word in words]
    last = max(
        (index for index, word in enumerate(folded) if names_parent(word)),
        default=None,
    )
    if last is None or last == 0:
        return None
    family_from = last + 2
    if last + 1 < len(words) and folded[last + 1] in _compound_leads():
        family_from += 1
    family = words[family_from:]
    if not family:
        return None
    return " ".join([words[0], *family])


@cache
def _compound_leads() -> frozenset[str]:
    return frozenset(fold(word) for word in _COMPOUND_LEADS)
