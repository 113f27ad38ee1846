"""The identity gate: the one rule that keeps protected legal names out of public view.

A protected person's legal spellings must not appear in anything a reader can see.
The package reads text as the reader meets it and finds a spelling in the shapes a
name hides in:

- `folding`: each character folded to the letter it is drawn as, from Unicode's own
  data (invisible characters removed, confusable and variant letters folded, the
  project's Arabic folding, case);
- `matching`: what a text can show a reader (escapes decoded, markup read both
  ways, bidi overrides as displayed) and the matcher (a spelling's letters run
  together, or its words near each other in either order);
- `rows`: which fields of which rows are public, and which are printed together;
- `gate`: the gate that refuses an edit, and its errors;
- `output`: the reading of a whole response before it is sent;
- `spans`: where in a raw text the spellings stand, for redacting them;
- `cache`: each thread's gate for the people as they now stand.
"""

from .folding import fold
from .gate import (
    BidiOverrideError,
    IdentityGate,
    IdentityLeakError,
    Leak,
    bidi_overrides,
    leak_message,
    spelling_problem,
)
from .matching import (
    MIN_SPELLING_LETTERS,
    decoded,
    letters,
    readings,
    without_markup,
)
from .rows import (
    Exposure,
    field_label,
    public_exposures,
    public_field_names,
    public_texts,
    read_together,
    story_images,
    story_rows,
)


def skeleton(text: str, *, is_html: bool = False) -> str:
    """The folded letters and digits of `text` as a reader would see it (without
    its markup when `is_html`)."""
    if not text:
        return ""
    return letters(without_markup(text) if is_html else decoded(text))


__all__ = [
    "MIN_SPELLING_LETTERS",
    "BidiOverrideError",
    "Exposure",
    "IdentityGate",
    "IdentityLeakError",
    "Leak",
    "bidi_overrides",
    "field_label",
    "fold",
    "leak_message",
    "public_exposures",
    "public_field_names",
    "public_texts",
    "read_together",
    "readings",
    "skeleton",
    "spelling_problem",
    "story_images",
    "story_rows",
]
