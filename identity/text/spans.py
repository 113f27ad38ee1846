"""Where in a raw text a matcher's spellings stand, for replacing them.

The matcher says whose spellings a text holds; redaction (identity.redaction)
needs where. The text is folded character by character with `fold`, the same
folding the matcher reads, remembering the raw index each folded character came
from, and the spellings are found in the folded letters the two ways the matcher
finds them: letters run together, or words near each other in either order.

Only the text as typed is read: escapes are not decoded and markup is not cut
out, so a name split by a tag or written as entities is not located here (the
caller reads the result again with the matcher when it must be sure).
"""

import re
from collections.abc import Iterable, Iterator

from .folding import _TABLE, fold, read_together, read_together_with_origin
from .matching import TOKEN_RE, Matcher, chain_length

Span = tuple[int, int, object]


def folded_with_origin(text: str) -> tuple[str, list[int]]:
    """`fold(text)` and, for each of its characters, the index in `text` of the
    character it came from."""
    pieces, origin = [], []
    for index, char in enumerate(text):
        folded = _TABLE[ord(char)]
        if folded:
            pieces.append(folded)
            origin.extend([index] * len(folded))
    return read_together_with_origin("".join(pieces), origin)


def spans_in(
    matcher: Matcher, text: str, *, only: Iterable[int] | None = None
) -> list[Span]:
    """(start, end, owner) of each spelling (those numbered `only`, or all) found
    in `text`, in order, none overlapping (the longer of two that do is kept)."""
    if not text or not matcher:
        return []
    indexes = range(len(matcher.spellings)) if only is None else only
    # Folded at once first (in C), to pass over text holding no spelling without
    # folding it character by character.
    letters = read_together(fold(text).replace(" ", ""))
    indexes = [
        index for index in indexes if _may_hold(matcher.spellings[index], letters)
    ]
    if not indexes:
        return []
    folded, origin = folded_with_origin(text)
    # The letters run together, read together again across the spaces, each with
    # the index in `folded` it stands at.
    run, letter_at = read_together_with_origin(
        folded.replace(" ", ""), [i for i, char in enumerate(folded) if char != " "]
    )
    found: list[tuple[int, int, object]] = []  # (start, end) in folded text
    for index in indexes:
        spelling = matcher.spellings[index]
        for needle in spelling.runs:
            start = run.find(needle)
            while start != -1:
                end = start + len(needle)
                found.append((letter_at[start], letter_at[end - 1] + 1, spelling.owner))
                start = run.find(needle, start + 1)
        if spelling.words and all(word in run for word in spelling.words):
            found += _words_near(matcher, index, folded)
    return _raw_spans(text, origin, found)


def _may_hold(spelling, run: str) -> bool:
    """Whether folded letters `run` may hold `spelling` (as Matcher.found reads,
    before the words' order is looked at)."""
    if not all(word in run for word in spelling.required):
        return False
    return any(each in run for each in spelling.runs) or (
        bool(spelling.words) and all(word in run for word in spelling.words)
    )


def _words_near(
    matcher: Matcher, index: int, folded: str
) -> list[tuple[int, int, object]]:
    """(start, end, owner) in `folded` of spelling `index`'s words near each other."""
    spelling = matcher.spellings[index]
    alternatives = "|".join(map(re.escape, spelling.words))
    pattern = re.compile(rf"(?<!\S)\S*?(?:{alternatives})(?!\S)")
    found = []
    for match in pattern.finditer(folded):
        tokens: list[re.Match] = []
        read = _kept(TOKEN_RE.finditer(folded, match.start()), tokens)
        length = chain_length(spelling.words, read)
        if length:
            end = tokens[length - 1].end()
            found.append((match.start(), end, spelling.owner))
    return found


def _kept(tokens: Iterable[re.Match], into: list[re.Match]) -> Iterator[str]:
    """The text of each token, keeping each token read in `into`."""
    for token in tokens:
        into.append(token)
        yield token[0]


def _raw_spans(
    text: str, origin: list[int], found: list[tuple[int, int, object]]
) -> list[Span]:
    """Spans in folded text as spans of `text`, with the marks and invisible
    characters that follow their last letter, without overlaps."""
    spans = []
    for start, end, owner in found:
        raw_start, raw_end = origin[start], origin[end - 1] + 1
        while raw_end < len(text) and _TABLE[ord(text[raw_end])] == "":
            raw_end += 1
        spans.append((raw_start, raw_end, owner))
    spans.sort(key=lambda span: (span[0], span[0] - span[1]))
    kept: list[Span] = []
    for span in spans:
        if kept and span[0] < kept[-1][1]:
            continue
        kept.append(span)
    return kept
