"""No lost updates: an edit based on an older version of a story is merged with what
changed since, field by field and the body block by block, or refused where both
touched the same thing.

The editor's form carries the version it was opened at (`StoryEdit.base_version`).
If the story has moved on since, its revision at that version is the common
ancestor: a field only the editor changed keeps the editor's value, a field only the
others changed keeps theirs, and a field both changed to different values is a
conflict, reported with both values, who saved theirs and when. The body merges by
block (articles.blockmerge): only a paragraph both changed conflicts. The rows of
the story's merged parts (articles.parts) and its tags follow the same rule row by
row.

Every comparison is made on one canonical form of each value: the body as the body
editor writes it back, text without the line endings and edge spaces a browser
changes. A story written outside the desk's forms (an import, the demo, a
migration) therefore shows no change nobody made. Such a story has no revision of
the version editors opened until a service writes it: `record_as_found` records it
then, before the write, so the next save has its ancestor.

After a conflict the editor may take the others' version of a place
(`StoryEdit.take_theirs`), applied on the next save before anything is merged.
"""

from django.conf import settings
from django.utils.translation import gettext as _

from ..blockmerge import block_choice, merge_blocks, take_their_blocks
from ..body import canonical_blocks
from ..models import Article
from ..revisions import Snapshot, snapshot
from .ancestor import (
    BODIES,
    content_fields,
    history_after,
    record_as_found,
    same,
    story_at,
    value_of,
)
from .outcome import Conflict, EditConflict, Merge, when, who
from .rows import merge_rows, merge_tags, row_key

__all__ = [
    "Conflict",
    "EditConflict",
    "Merge",
    "content_fields",
    "merge_edit",
    "record_as_found",
]


def _label(name: str) -> str:
    return str(Article._meta.get_field(name.removesuffix("_id")).verbose_name)


def _language(name: str) -> str:
    code = name.rsplit("_", 1)[-1]
    return code if code in dict(settings.LANGUAGES) else ""


def _take_theirs(edit, stored: Article, merge: Merge) -> None:
    """Put the others' version where the editor chose it after a conflict: the
    value the form was shown, at the version it is based on."""
    shown = story_at(stored, edit.base_version) if edit.take_theirs else None
    if shown is None:
        return
    fields = set(content_fields())
    article = edit.article
    for choice in edit.take_theirs:
        name, _sep, place = choice.partition(":")
        if name == "row":  # the stored row stays as they left it
            edit.changed = [r for r in edit.changed if row_key(r) != place]
            edit.deleted = [r for r in edit.deleted if row_key(r) != place]
        elif name == "tags":
            edit.tags = list(shown.tags)
            merge.kept_tags = True
        elif name in fields and not place:
            setattr(article, name, shown.article.get(name))
            merge.kept_fields.append(name)
        elif name in fields and name in BODIES:
            blocks = take_their_blocks(
                canonical_blocks(getattr(article, name) or ""),
                place,
                canonical_blocks(shown.article.get(name) or ""),
            )
            if blocks is not None:
                setattr(article, name, "".join(blocks))
                merge.kept_fields.append(name)


def merge_edit(edit, stored: Article) -> Merge:
    """Bring `edit` up to date with `stored` when it was based on an older version.

    Changes `edit` in place (fields and rows only the others changed take their
    values, bodies both changed are merged by block) and raises EditConflict where
    both sides changed the same thing, the edit then holding its own version there.
    """
    merge = Merge(version=stored.version)
    if edit.base_version is None:
        return merge
    _take_theirs(edit, stored, merge)
    if edit.base_version == stored.version:
        return merge
    article = edit.article
    # The workflow's columns are moved by their own services, never typed: a copy
    # read before a move must not put the story back in its old state.
    for name in ("status", "published_at"):
        setattr(article, name, getattr(stored, name))
    later, base_version = history_after(stored, edit.base_version)
    # Without a revision at the editor's version (a form opened before anything
    # recorded one), nothing says who changed what: every difference is a conflict.
    base = snapshot(base_version.revision, stored) if base_version else None
    conflicts: list[Conflict] = []
    for name in content_fields():
        mine, theirs = value_of(article, name), value_of(stored, name)
        if same(name, mine, theirs):
            continue
        if base is not None:
            ancestor = base.article.get(name)
            if same(name, theirs, ancestor):
                continue
            if same(name, mine, ancestor):
                setattr(article, name, theirs)
                merge.kept_theirs.append(_label(name))
                merge.kept_fields.append(name)
                continue
            if name in BODIES:
                conflicts += _merge_body(edit, name, base, theirs, later, merge)
                continue
        changer = _changer(later, name, base)
        conflicts.append(
            Conflict(
                name,
                _label(name),
                str(theirs or ""),
                who(changer),
                when(changer),
                mine_value=str(mine or ""),
                choice=name,
                language=_language(name),
            )
        )
    if base is not None:
        conflicts += merge_rows(edit, base, stored, later, merge)
        conflicts += merge_tags(edit, base, stored, later, merge)
    else:
        if edit.changed or edit.deleted:
            label = _("people, posts, sources and bylines")
            conflicts.append(Conflict("rows", label, "", who(later), when(later)))
        if edit.tags is not None and sorted(edit.tags) != sorted(stored.tags.names()):
            conflicts.append(Conflict("tags", _("tags"), "", who(later), when(later)))
    if conflicts:
        raise EditConflict(conflicts, merge)
    edit.base_version = stored.version
    return merge


def _merge_body(edit, name: str, base: Snapshot, theirs, later, merge: Merge):
    """Merge a body both sides changed, block by block; a conflict per place."""
    article = edit.article
    merged = merge_blocks(
        canonical_blocks(base.article.get(name) or ""),
        canonical_blocks(getattr(article, name) or ""),
        canonical_blocks(theirs or ""),
    )
    setattr(article, name, "".join(merged.blocks))
    merge.kept_fields.append(name)
    if not merged.conflicts:
        merge.kept_theirs.append(_label(name))
        return []
    changer = _changer(later, name, base)
    return [
        Conflict(
            name,
            _("%(field)s, paragraph %(number)s")
            % {"field": _label(name), "number": place.at + 1},
            "".join(place.theirs),
            who(changer),
            when(changer),
            mine_value="".join(place.mine),
            choice=f"{name}:{block_choice(merged.blocks, place)}",
            language=_language(name),
        )
        for place in merged.conflicts
    ]


def _changer(later: list, name: str, base: Snapshot | None) -> list:
    """The revision that last changed `name` among `later` (all of them if none)."""
    previous = base.article.get(name) if base else None
    changer = None
    for version in later:
        value = version.field_dict.get(name)
        if not same(name, value, previous):
            changer = version
        previous = value
    return [changer] if changer else later
