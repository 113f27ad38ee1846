"""The body merges by block: edits to different paragraphs of one body merge; only
edits to the same paragraph (or insertions at the same place) conflict."""

from articles.blockmerge import block_choice, merge_blocks, take_their_blocks

BASE = ["<p>one</p>", "<p>two</p>", "<p>three</p>", "<p>four</p>"]


def edited(blocks, **changes):
    """`blocks` with block number N (from 0) replaced: edited(BASE, b1="<p>x</p>")."""
    result = list(blocks)
    for key, value in changes.items():
        result[int(key[1:])] = value
    return result


def test_edits_to_different_paragraphs_merge():
    """Mine changes the first paragraph, theirs the last: both are kept."""
    mine = edited(BASE, b0="<p>ONE</p>")
    theirs = edited(BASE, b3="<p>FOUR</p>")
    merged = merge_blocks(BASE, mine, theirs)
    assert merged.conflicts == []
    assert merged.blocks == ["<p>ONE</p>", "<p>two</p>", "<p>three</p>", "<p>FOUR</p>"]


def test_edits_to_neighbouring_paragraphs_merge():
    """Neighbours are different paragraphs: no conflict between them."""
    merged = merge_blocks(
        BASE, edited(BASE, b1="<p>TWO</p>"), edited(BASE, b2="<p>THREE</p>")
    )
    assert merged.conflicts == []
    assert merged.blocks == ["<p>one</p>", "<p>TWO</p>", "<p>THREE</p>", "<p>four</p>"]


def test_edits_to_the_same_paragraph_conflict_and_mine_stays_in_place():
    """Both rewrote paragraph two: one conflict there, with both versions; the
    merged body holds mine there and theirs elsewhere."""
    mine = edited(BASE, b1="<p>two (mine)</p>")
    theirs = edited(BASE, b1="<p>two (theirs)</p>", b3="<p>FOUR</p>")
    merged = merge_blocks(BASE, mine, theirs)
    (conflict,) = merged.conflicts
    assert (conflict.at, conflict.mine, conflict.theirs) == (
        1,
        ("<p>two (mine)</p>",),
        ("<p>two (theirs)</p>",),
    )
    assert merged.blocks == [
        "<p>one</p>",
        "<p>two (mine)</p>",
        "<p>three</p>",
        "<p>FOUR</p>",
    ]


def test_the_same_change_on_both_sides_is_no_conflict():
    """Both fixed the same typo the same way."""
    fixed = edited(BASE, b2="<p>3</p>")
    merged = merge_blocks(BASE, fixed, list(fixed))
    assert (merged.blocks, merged.conflicts) == (fixed, [])


def test_a_paragraph_added_by_one_and_another_edited_by_the_other_merge():
    """Theirs adds a paragraph after two; mine edits paragraph four."""
    theirs = [*BASE[:2], "<p>new</p>", *BASE[2:]]
    mine = edited(BASE, b3="<p>FOUR</p>")
    merged = merge_blocks(BASE, mine, theirs)
    assert merged.conflicts == []
    assert merged.blocks == [
        "<p>one</p>",
        "<p>two</p>",
        "<p>new</p>",
        "<p>three</p>",
        "<p>FOUR</p>",
    ]


def test_a_paragraph_removed_by_one_and_another_edited_by_the_other_merge():
    """Theirs removes paragraph one; mine edits paragraph three."""
    merged = merge_blocks(BASE, edited(BASE, b2="<p>THREE</p>"), BASE[1:])
    assert merged.conflicts == []
    assert merged.blocks == ["<p>two</p>", "<p>THREE</p>", "<p>four</p>"]


def test_a_paragraph_removed_by_one_and_edited_by_the_other_conflicts():
    """Theirs removed paragraph two, which mine rewrote: their version is empty."""
    merged = merge_blocks(BASE, edited(BASE, b1="<p>TWO</p>"), [BASE[0], *BASE[2:]])
    (conflict,) = merged.conflicts
    assert (conflict.mine, conflict.theirs) == (("<p>TWO</p>",), ())


def test_different_paragraphs_added_at_the_same_place_conflict():
    """Both added a paragraph after the last one, saying different things."""
    merged = merge_blocks(BASE, [*BASE, "<p>mine</p>"], [*BASE, "<p>theirs</p>"])
    (conflict,) = merged.conflicts
    assert (conflict.at, conflict.mine, conflict.theirs) == (
        4,
        ("<p>mine</p>",),
        ("<p>theirs</p>",),
    )


def test_taking_theirs_replaces_my_version_of_that_place_only():
    """The choice names the place; after it, the others' paragraph is there and
    everything else the editor has stays."""
    mine = edited(BASE, b1="<p>two (mine)</p>", b3="<p>FOUR</p>")
    theirs = edited(BASE, b1="<p>two (theirs)</p>")
    merged = merge_blocks(BASE, mine, theirs)
    choice = block_choice(merged.blocks, merged.conflicts[0])
    # The editor kept writing elsewhere before saving again.
    submitted = [*merged.blocks, "<p>five</p>"]
    assert take_their_blocks(submitted, choice, theirs) == [
        "<p>one</p>",
        "<p>two (theirs)</p>",
        "<p>three</p>",
        "<p>FOUR</p>",
        "<p>five</p>",
    ]


def test_taking_theirs_where_they_removed_the_paragraph_removes_mine():
    """Their version of the place is empty: taking it removes my paragraph."""
    theirs = [BASE[0], *BASE[2:]]
    merged = merge_blocks(BASE, edited(BASE, b1="<p>TWO</p>"), theirs)
    choice = block_choice(merged.blocks, merged.conflicts[0])
    assert take_their_blocks(merged.blocks, choice, theirs) == theirs


def test_taking_theirs_where_i_removed_the_paragraph_puts_theirs_back():
    """My version of the place is empty: theirs goes back after the block before."""
    theirs = edited(BASE, b1="<p>TWO</p>")
    merged = merge_blocks(BASE, [BASE[0], *BASE[2:]], theirs)
    choice = block_choice(merged.blocks, merged.conflicts[0])
    assert take_their_blocks(merged.blocks, choice, theirs) == theirs


def test_a_choice_for_a_place_rewritten_since_is_not_applied():
    """The editor rewrote the paragraph again after the conflict: what they typed
    last is kept, the choice finds nothing to replace."""
    theirs = edited(BASE, b1="<p>two (theirs)</p>")
    merged = merge_blocks(BASE, edited(BASE, b1="<p>two (mine)</p>"), theirs)
    choice = block_choice(merged.blocks, merged.conflicts[0])
    rewritten = edited(merged.blocks, b1="<p>two (mine, again)</p>")
    assert take_their_blocks(rewritten, choice, theirs) is None


def test_a_choice_that_is_not_one_we_made_is_ignored():
    """A hand-made value finds nothing, and raises nothing."""
    assert take_their_blocks(BASE, "not-a-choice", BASE) is None
    assert take_their_blocks(BASE, "0.99.abc.1.def", BASE) is None
