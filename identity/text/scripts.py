"""Words written in letters of more than one script (UTS #39, mixed-script
detection).

"Mаzen" with a Cyrillic а reads as a Latin name and matches no Latin spelling
letter by letter. The matcher folds such look-alikes, but a word mixing scripts is
itself the mark of a disguise, worth refusing with a clear message whether or not
it spells a name anyone protects: ordinary copy has no use for one.

A word's scripts are its letters' (Unicode's Scripts data, as
`confusable_homoglyphs` carries it), Common and Inherited characters (digits,
punctuation, the combining marks every script shares, tatweel) counted in none; a
mark of one script set on a letter of another makes its word mixed. A word is
single-script
when its scripts fit within one of the sets UTS #39's "highly restrictive" level
allows (any one script; Latin with the scripts of Japanese, Chinese or Korean
writing), or is Latin with Arabic in one run each: Arabic copy glues its clitics
to Latin names (والـCNN, بـiPhone), but a Latin word with an Arabic letter inside
it ("Harbهur", ه drawn as o) is a disguise.
"""

from functools import lru_cache

import regex
from confusable_homoglyphs import categories

# A character the data does not know (assigned in a later Unicode than Python's)
# is a script of its own: a word holding one beside letters is refused.
_SHARED = frozenset({"COMMON", "INHERITED"})
_ALLOWED_TOGETHER = tuple(
    frozenset(scripts)
    for scripts in (
        {"LATIN", "HAN", "HIRAGANA", "KATAKANA"},
        {"LATIN", "HAN", "BOPOMOFO"},
        {"LATIN", "HAN", "HANGUL"},
    )
)
_GLUED = frozenset({"LATIN", "ARABIC"})
# A word with its marks: a mark belongs to the letter it is set on, and counts in
# the word's scripts when it has one of its own (a Devanagari anusvara set on an
# Arabic ر reads as the dot of ز).
_WORD_RE = regex.compile(r"[\w\p{M}]+")


@lru_cache(maxsize=4096)
def script_of(character: str) -> str:
    """The script of `character` as Unicode's Scripts data names it ("LATIN")."""
    # A code point the data leaves out (unassigned) is "Unknown".
    return categories.alias(character).upper()


def scripts_of(word: str) -> frozenset[str]:
    """The scripts of the letters of `word`, the shared ones left out."""
    return frozenset(script_of(character) for character in word) - _SHARED


def is_mixed(word: str) -> bool:
    """Whether `word` mixes scripts beyond what one writing system uses."""
    scripts = scripts_of(word)
    if len(scripts) < 2:
        return False
    if scripts == _GLUED:
        return _runs(word) > 2
    return not any(scripts <= allowed for allowed in _ALLOWED_TOGETHER)


def _runs(word: str) -> int:
    """How many runs of one script the letters of `word` make."""
    scripts = [script_of(character) for character in word]
    letters = [script for script in scripts if script not in _SHARED]
    return sum(
        1 for i, script in enumerate(letters) if i == 0 or script != letters[i - 1]
    )


def mixed_words(text: str) -> list[str]:
    """The words of `text` that mix scripts, in order, each once."""
    if text.isascii():
        return []
    return list(dict.fromkeys(w for w in _WORD_RE.findall(text) if is_mixed(w)))
