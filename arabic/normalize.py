"""One normalization for matching Arabic text, applied identically to text and query.

The original text is always stored and displayed as written; only comparisons use the
folded form. Choices (see shared DOMAIN notes):

- tashkeel, superscript alef, hamza/maddah marks and Quranic marks are removed;
- tatweel, zero-width and bidi control characters are removed;
- أ إ آ ٱ → ا, ى → ي, ة → ه, ؤ → و, ئ → ي;
- Persian and Urdu look-alikes ی → ي, ک ڪ → ك, ھ ہ ە ۀ → ه;
- Arabic-Indic and Eastern Arabic-Indic digits → 0-9;
- Latin letters are case-folded and runs of whitespace become one space.

Search folds one step further (`search_fold`): the hamza's seat is a spelling
convention that differs between desks (مسئول and مسؤول, شئون and شؤون, رءوف and رؤوف),
so a hamza on و or ي and one on the line are the same letter to search. The identity
matcher keeps `normalize`: its own folding decides what a protected name may look like.
"""

import re
import unicodedata

_REMOVE = (
    "[\u064b-\u0655\u0670\u06d6-\u06ed\u0640"
    "\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]"
)
_REMOVE_RE = re.compile(_REMOVE)
_FOLD = str.maketrans(
    {
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",
        "ى": "ي",
        "ة": "ه",
        "ؤ": "و",
        "ئ": "ي",
        "ی": "ي",
        "ک": "ك",
        "ڪ": "ك",
        "ھ": "ه",
        "ہ": "ه",
        "ە": "ه",
        "ۀ": "ه",
        **{chr(0x0660 + d): str(d) for d in range(10)},
        **{chr(0x06F0 + d): str(d) for d in range(10)},
    }
)
_SPACE_RE = re.compile(r"\s+")
_HAMZA_SEATS = str.maketrans({"ؤ": "ء", "ئ": "ء"})


def strip_marks(text: str) -> str:
    """Remove tashkeel, tatweel and invisible controls; letters stay as written."""
    return _REMOVE_RE.sub("", text or "")


def normalize(text: str) -> str:
    """Fold `text` for matching: the same input always gives the same key."""
    if not text:
        return ""
    # NFKC first turns presentation forms (ﻻ, ﷲ) into their base letters.
    text = unicodedata.normalize("NFKC", text)
    text = strip_marks(text).translate(_FOLD).casefold()
    return _SPACE_RE.sub(" ", text).strip()


def search_fold(text: str) -> str:
    """normalize(), with every hamza seat read as the hamza itself: the key of the
    stored search columns and of the queries that read them."""
    if not text:
        return ""
    # NFKC first, so a presentation form of ئ is a ئ before its seat is dropped.
    return normalize(unicodedata.normalize("NFKC", text).translate(_HAMZA_SEATS))


# Longest first, so "وبال" is tried before "و".
_PROCLITICS = sorted(
    {
        "و", "ف", "ب", "ل", "ك", "ال",
        "وب", "ول", "وك", "فب", "فل", "فك",
        "بال", "كال", "فال", "وال", "لل", "ولل", "فلل",
        "وبال", "وكال", "فبال", "فكال",
    },
    key=len,
    reverse=True,
)  # fmt: skip


def strip_clitics(word: str) -> list[str]:
    """Readings of a normalized word with its proclitics removed, the word itself first.

    A reading keeps at least two letters. Because ل + ال is written لل, a word such as
    "للاسد" also yields "الاسد", so it matches a name written with the article.
    """
    readings = [word]
    for prefix in _PROCLITICS:
        if not word.startswith(prefix) or len(word) - len(prefix) < 2:
            continue
        rest = word[len(prefix) :]
        readings.append(rest)
        if prefix.endswith("لل"):
            readings.append("ال" + rest)
    return list(dict.fromkeys(readings))
