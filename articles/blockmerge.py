"""Three-way merge of a story's body by blocks (paragraphs, headings, lists, quotes,
placed posts and images), as the concurrent-edit merge uses it.

Each side's changes are read against the common ancestor with difflib: a run of
blocks replaced, removed or inserted. Changes of the two sides that touch different
blocks are all applied; where both touched the same block (or inserted at the same
place) differently, the editor's version is kept in the merged body and the place
is reported as a conflict, with both versions, for the editor to choose.

The blocks are compared as given: callers pass canonical blocks
(`articles.body.canonical_blocks`), so markup alone never counts as a change.
"""

import difflib
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class BlockConflict:
    """A place both sides changed differently: the editor's blocks there (`mine`,
    starting at block `at` of the merged body) and the others' (`theirs`)."""

    at: int
    mine: tuple[str, ...]
    theirs: tuple[str, ...]


@dataclass
class BlockMerge:
    """The merged body's blocks (the editor's version where they conflict)."""

    blocks: list[str]
    conflicts: list[BlockConflict] = field(default_factory=list)


@dataclass(frozen=True)
class _Edit:
    """Ancestor blocks [start, end) replaced by `blocks` on one side."""

    start: int
    end: int
    blocks: tuple[str, ...]
    side: str

    def overlaps(self, other: "_Edit") -> bool:
        if self.start == self.end and other.start == other.end:
            return self.start == other.start  # two insertions at one place
        if self.start == self.end:
            return other.start < self.start < other.end
        if other.start == other.end:
            return self.start < other.start < self.end
        return self.start < other.end and other.start < self.end


def _edits(ancestor: Sequence[str], version: Sequence[str], side: str) -> list[_Edit]:
    """What `version` changed of `ancestor`, as runs of blocks."""
    edits = []
    matcher = difflib.SequenceMatcher(a=ancestor, b=version, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            # Paragraph for paragraph: each one is a change of its own, so the
            # other side's change to a neighbouring paragraph is not a conflict.
            edits += [
                _Edit(i1 + k, i1 + k + 1, (version[j1 + k],), side)
                for k in range(i2 - i1)
            ]
        else:
            edits.append(_Edit(i1, i2, tuple(version[j1:j2]), side))
    return edits


def _groups(edits: list[_Edit]) -> list[list[_Edit]]:
    """The edits in groups that overlap, transitively, in the ancestor's order."""
    groups: list[list[_Edit]] = []
    for edit in sorted(edits, key=lambda e: (e.start, e.end, e.side)):
        touching = [g for g in groups if any(edit.overlaps(other) for other in g)]
        merged = [edit, *(e for g in touching for e in g)]
        groups = [g for g in groups if g not in touching]
        groups.append(merged)
    return sorted(
        groups, key=lambda g: (min(e.start for e in g), max(e.end for e in g))
    )


def _applied(ancestor: Sequence[str], start: int, end: int, edits) -> tuple[str, ...]:
    """Ancestor blocks [start, end) with `edits` (of one side) applied."""
    out: list[str] = []
    position = start
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        out += ancestor[position : edit.start]
        out += edit.blocks
        position = edit.end
    out += ancestor[position:end]
    return tuple(out)


def merge_blocks(
    ancestor: Sequence[str], mine: Sequence[str], theirs: Sequence[str]
) -> BlockMerge:
    """Merge the editor's blocks and the others' against their common ancestor."""
    result = BlockMerge(blocks=[])
    position = 0
    edits = _edits(ancestor, mine, "mine") + _edits(ancestor, theirs, "theirs")
    for group in _groups(edits):
        start = min(e.start for e in group)
        end = max(e.end for e in group)
        result.blocks += ancestor[position:start]
        position = end
        my_version = _applied(
            ancestor, start, end, [e for e in group if e.side == "mine"]
        )
        their_version = _applied(
            ancestor, start, end, [e for e in group if e.side == "theirs"]
        )
        sides = {e.side for e in group}
        if sides == {"theirs"}:
            result.blocks += their_version
            continue
        if sides == {"mine"} or my_version == their_version:
            result.blocks += my_version
            continue
        result.conflicts.append(
            BlockConflict(len(result.blocks), my_version, their_version)
        )
        result.blocks += my_version
    result.blocks += ancestor[position:]
    return result


# Taking the others' version of a conflicting place on the next save: the form
# sends a choice naming the place by digests of the blocks around and in it, since
# the block numbers move as the editor keeps writing.


def _digest(blocks: Sequence[str]) -> str:
    return hashlib.blake2b("\n".join(blocks).encode(), digest_size=5).hexdigest()


def block_choice(merged: Sequence[str], conflict: BlockConflict) -> str:
    """The name of `conflict`'s place in the body `merged`, for a form to send."""
    before = _digest(merged[conflict.at - 1 : conflict.at]) if conflict.at else "0"
    mine, theirs = conflict.mine, conflict.theirs
    return f"{before}.{len(mine)}.{_digest(mine)}.{len(theirs)}.{_digest(theirs)}"


def take_their_blocks(
    blocks: Sequence[str], choice: str, their_body: Sequence[str]
) -> list[str] | None:
    """`blocks` with the editor's version of the place `choice` names replaced by
    the others' (found in `their_body`); None when either cannot be found any more
    (the editor rewrote the place since, or the choice is not one we made)."""
    try:
        before, mine_length, mine, theirs_length, theirs = choice.split(".")
        mine_count, theirs_count = int(mine_length), int(theirs_length)
    except ValueError:
        return None
    if mine_count > len(blocks) or theirs_count > len(their_body):
        return None
    theirs_at = next(
        (
            i
            for i in range(len(their_body) - theirs_count + 1)
            if _digest(their_body[i : i + theirs_count]) == theirs
        ),
        None,
    )
    if theirs_at is None:
        return None
    replacement = list(their_body[theirs_at : theirs_at + theirs_count])
    places = [
        at
        for at in range(len(blocks) - mine_count + 1)
        if _digest(blocks[at : at + mine_count]) == mine
    ]
    # The block before tells apart places alike (an empty version of the editor's
    # fits anywhere); a version of their own is found even after the block before
    # it was rewritten.
    anchored = [
        at for at in places if (_digest(blocks[at - 1 : at]) if at else "0") == before
    ]
    if anchored or (mine_count and places):
        at = (anchored or places)[0]
        return [*blocks[:at], *replacement, *blocks[at + mine_count :]]
    return None
