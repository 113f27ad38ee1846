"""Finding a name written in Latin letters however it is romanized.

`Romanized` holds, for each legal spelling of two words or more, the keys of its
named words (identity.text.romanization) and finds them in a text's Latin words
the way the matcher finds words near each other: in either order, at most
MAX_WORDS_BETWEEN other words between them, articles and connectors not counted,
nor the ancestors of a lineage ("Nizar bin Khalid bin Ali al-Halbouni"); or all
run together in one word ("NizarHalbouni", "nizar_halbouni").

A name of one word is not looked for by its key: many other words share the
consonants of one word.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from .folding import fold
from .lineage import names_parent
from .matching import CONNECTORS, MAX_WORDS_BETWEEN, merged
from .romanization import (
    ARABIC_RE,
    ARTICLE_RE,
    IGNORABLE_RE,
    arabic_keys,
    in_latin_letters,
    joined_letters,
    latin_letters,
    latin_readings,
    latin_words,
    other_scripts_in_latin,
    readings_of,
)

# The Latin words that join the parts of a name, and those that name a parent.
_CONNECTORS = frozenset(
    ["bin", "ben", "ibn", "bint", "abu", "abou", "abi", "umm", "um"]
)
_LIST_WORDS = frozenset(["and", "or", "et", "und", "w"])
# An ancestor's compound name after a lineage word: "bin Abdel Karim", "bin Nour
# el-Din".
_COMPOUND_LEADS = frozenset(["abd", "abdel", "abdul", "abdal", "abdoul", "abdu"])
_COMPOUND_TAILS = frozenset(["allah", "din", "deen", "eddine", "eddin", "uddin"])
# Distinct words kept read, at most: then forgotten, and read again.
_MAX_KNOWN = 100_000
# A key shorter than this is one consonant: not a word of a name.
_MIN_KEY = 2


@dataclass(frozen=True)
class _Name:
    owner: object
    # For each named word, the keys it may be read as.
    words: tuple[frozenset[str], ...]
    # The keys of all the words run together.
    runs: frozenset[str]


def _word_keys(word: str) -> frozenset[str]:
    """The keys of a word of a spelling; none for a connector (بن, bin, al…)."""
    if fold(word).strip() in CONNECTORS:
        return frozenset()
    if ARABIC_RE.search(word):
        bare = word[2:] if word.startswith("ال") and len(word) > 4 else word
        keys = arabic_keys(bare)
    else:
        letters = latin_letters(word)
        if letters in _CONNECTORS or ARTICLE_RE.fullmatch(letters):
            return frozenset()
        keys = latin_readings(letters)
    return frozenset(key for key in keys if len(key) >= _MIN_KEY)


def _name(owner, spelling: str) -> _Name | None:
    words = [keys for keys in map(_word_keys, spelling.split()) if keys]
    if len(words) < 2 or len(set(words)) < 2:
        return None
    runs = {""}
    for keys in words:
        runs = {run + key for run in runs for key in keys}
    return _Name(owner, tuple(words), frozenset(runs))


class Romanized:
    """Legal spellings of two words or more, found by their keys."""

    def __init__(self, spellings: Iterable[tuple[object, str]]):
        found = (_name(owner, spelling) for owner, spelling in spellings)
        self.names = [name for name in found if name is not None]
        self.keys = frozenset(k for name in self.names for w in name.words for k in w)
        self.runs = frozenset(run for name in self.names for run in name.runs)
        self._readings: dict[bytes, tuple[str, frozenset[str]]] = {}
        self._candidates: set[bytes] = set()

    def __bool__(self) -> bool:
        return bool(self.names)

    def owners_in(self, text: str, *, joined: bool = False) -> list:
        """Owners of the names whose keys stand near each other in the Latin words
        of `text`, each once (see `read` for `joined`)."""
        return self.read(text, joined=joined)[0]

    def read(self, text: str, *, joined: bool = False) -> tuple[list, bool]:
        """The owners `owners_in` finds, and whether any Latin word of `text` may
        stand for a word of a name at all; with `joined`, read with its letters
        joined too (`joined_letters`: "Ma-zen", "M a z e n") and with its Arabic
        words in Latin letters (`in_latin_letters`: "مازن Khatib"), as the doors
        read a field (on a whole page it would cost more than the rest of the
        check)."""
        if not self.names or not text:
            return [], False
        owners, candidates = self._read_view(text)
        if not joined:
            return owners, candidates
        # The other scripts' words alone too, as the page check reads them (the
        # half-script reading romanizes the Arabic glued to them as well).
        views = (
            joined_letters(text),
            in_latin_letters(text),
            other_scripts_in_latin(text),
        )
        for other in views:
            if other and other != text:
                more, more_candidates = self._read_view(other)
                owners, candidates = merged(owners, more), candidates or more_candidates
        return owners, candidates

    def _read_view(self, text: str) -> tuple[list, bool]:
        # Most texts hold no word of any name: found out from their Latin words
        # alone, each distinct word read once (then known), in set operations.
        # What is known is forgotten between texts, never while one is read.
        if len(self._readings) > _MAX_KNOWN:
            self._readings.clear()
            self._candidates.clear()
        distinct = set(latin_words(text))
        for word in distinct - self._readings.keys():
            self._read(word)
        if not distinct & self._candidates:
            return [], False
        # Then read in order, each word of another script standing between
        # (characters no reader sees are no word), from the words that may stand
        # for a word of a name: most of a page's words are not looked at again.
        seen = latin_words(IGNORABLE_RE.sub("", text), others=True)
        named = {word for word in set(seen) if self._read(word)[1]}
        present = frozenset().union(*(self._read(word)[1] for word in named))
        # A name is there only if one of its runs is, or every one of its words.
        names = [
            name
            for name in self.names
            if name.runs & present or all(word & present for word in name.words)
        ]
        if not names:
            return [], True
        starts = sorted(index for word in named for index in _places(seen, word))
        found: dict[int, object] = {}
        for name in names:
            if id(name.owner) not in found and _named(name, seen, starts, self._read):
                found[id(name.owner)] = name.owner
        return list(found.values()), True

    def _read(self, word: bytes) -> tuple[str, frozenset[str]]:
        """`word` as text, and the keys of a name's words (or of a whole name) it
        may stand for; kept, as pages repeat their words."""
        known = self._readings.get(word)
        if known is None:
            letters = word.decode("ascii")
            keys = readings_of(letters) if len(letters) > 1 else set()
            wanted = frozenset(k for k in keys if k in self.keys or k in self.runs)
            known = (letters, wanted)
            self._readings[word] = known
            if wanted:
                self._candidates.add(word)
        return known


def _places(words: list[bytes], word: bytes) -> Iterable[int]:
    """Where `word` stands in `words`, in order."""
    index = -1
    while True:
        try:
            index = words.index(word, index + 1)
        except ValueError:
            return
        yield index


def _named(name: _Name, words: list[bytes], starts: list[int], read) -> bool:
    """Whether `words` (read by `read`) hold `name`, from one of `starts`."""
    for start in starts:
        keys = read(words[start])[1]
        if keys & name.runs:
            return True
        started = any(keys & word for word in name.words)
        if started and _chain(name, words, start, read):
            return True
    return False


def _chain(name: _Name, words: list[bytes], start: int, read) -> bool:
    """Whether the words from `start` hold every word of `name`, as
    matching.chain_length reads a name's words."""
    wanted = _unread(set(range(len(name.words))), name, read(words[start])[1])
    between, ancestor, tail = 0, False, False
    for each in islice(words, start + 1, None):
        word, keys = read(each)
        left = _unread(wanted, name, keys)
        if left != wanted:
            wanted = left
            between, ancestor, tail = 0, False, False
            if not wanted:
                return True
        elif word in _LIST_WORDS:
            return False
        elif names_parent(fold(word)):
            ancestor = True
        elif word in _CONNECTORS or ARTICLE_RE.fullmatch(word):
            pass  # as in matching.chain_length
        elif ancestor:
            ancestor = word in _COMPOUND_LEADS
            tail = not ancestor
        elif tail and word in _COMPOUND_TAILS:
            tail = False
        elif not keys:
            between += 1
            if between > MAX_WORDS_BETWEEN:
                return False
    return False


def _unread(wanted: set[int], name: _Name, read: frozenset[str]) -> set[int]:
    """The words of `name` numbered `wanted` that none of `read` stands for."""
    return {index for index in wanted if not read & name.words[index]}


__all__ = ["Romanized"]
