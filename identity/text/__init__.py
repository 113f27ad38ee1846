"""Reading text as a reader meets it, and finding a legal spelling in it.

Pure text, no database: `folding` folds each character to the letter it is drawn as,
from Unicode's own data; `matching` reads what a text can show a reader (escapes
decoded, markup read both ways, bidi overrides as displayed) and finds a spelling's
letters run together or its words near each other; `output` reads a whole response
in one pass; `spans` finds where in a raw text a spelling stands.
"""

from .folding import fold
from .matching import MIN_SPELLING_LETTERS, decoded, letters, readings, without_markup


def skeleton(text: str, *, is_html: bool = False) -> str:
    """The folded letters and digits of `text` as a reader would see it (without
    its markup when `is_html`)."""
    if not text:
        return ""
    return letters(without_markup(text) if is_html else decoded(text))


__all__ = [
    "MIN_SPELLING_LETTERS",
    "decoded",
    "fold",
    "letters",
    "readings",
    "skeleton",
    "without_markup",
]
