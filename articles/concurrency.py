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

import datetime as dt
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from modeltranslation.translator import translator
from reversion.models import Version

from .blockmerge import block_choice, merge_blocks, take_their_blocks
from .body import canonical_blocks, canonical_body
from .models import Article
from .parts import row_lists
from .revisions import (
    NOT_VERSIONED,
    Snapshot,
    register_story_models,
    revision_record,
    snapshot,
)

# Columns that are not the editor's words: the workflow, counters and bookkeeping.
_NOT_EDITED = {"id", "status", "published_at", "created_at", "created_by_id", "version"}
_BODIES = {f"body_{code}" for code, _name in settings.LANGUAGES}


def content_fields() -> list[str]:
    """The story's columns an editor writes (each language's column separately)."""
    translated = translator.get_options_for_model(Article).all_fields
    return [
        f.attname
        for f in Article._meta.concrete_fields
        if f.attname not in _NOT_EDITED
        and f.name not in NOT_VERSIONED
        and f.name not in translated
    ]


def canonical(model_field: models.Field, value):
    """`value` as the form would send it back, for comparing: what a browser and
    the body editor change without anyone typing is the same either way."""
    if value is None or value == "":
        return ""
    if model_field.model is Article and model_field.attname in _BODIES:
        return canonical_body(value)
    if isinstance(value, str):
        text = value.replace("\r\n", "\n").replace("\r", "\n")
        if not isinstance(model_field, models.TextField):
            text = text.replace("\n", "")  # a one-line input drops line breaks
        return "\n".join(line.rstrip() for line in text.split("\n")).strip()
    if isinstance(value, dt.datetime):
        return value.replace(microsecond=0)  # forms show whole seconds
    if isinstance(value, list | tuple):
        return [canonical(model_field, item) for item in value]
    return value


def _same(name: str, a, b) -> bool:
    if a == b:
        return True  # most values are untouched: no body needs parsing then
    model_field = _article_field(name)
    return canonical(model_field, a) == canonical(model_field, b)


def _article_field(name: str) -> models.Field:
    return next(f for f in Article._meta.concrete_fields if f.attname == name)


@dataclass(frozen=True)
class Conflict:
    """One thing both editors changed differently."""

    field: str  # an Article attribute, or "<model>:<pk>" for a related row, or "tags"
    label: str
    their_value: str
    by: str
    at: dt.datetime | None
    mine_value: str = ""
    # What the editor's form sends to take the others' version ("" when it cannot).
    choice: str = ""
    language: str = ""  # of a field's text, for showing it in its direction


class EditConflict(ValidationError):
    """The edit overlaps what others saved since the editor opened the story."""

    def __init__(self, conflicts: list[Conflict], merge: "Merge | None" = None):
        self.conflicts = conflicts
        # What the edit kept of the others' changes elsewhere (a form shows it).
        self.merge = merge or Merge()
        super().__init__(
            _(
                "Someone else changed this story after you opened it, in the same "
                "places: %(places)s. The form holds your version of them and their "
                "changes everywhere else; compare both versions below, keep yours "
                "or take theirs, and save again."
            )
            % {"places": _(", ").join(c.label for c in conflicts)},
            code="edit_conflict",
        )


@dataclass
class Merge:
    """What an edit keeps of the others' changes: labels for the editor, and the
    story's attributes, rows and tags, so a form can show the merged values."""

    kept_theirs: list[str] = field(default_factory=list)
    # Attributes now holding the others' value, or (bodies) merged by block.
    kept_fields: list[str] = field(default_factory=list)
    # Stored rows of which the editor had an old, untouched copy.
    kept_rows: list[models.Model] = field(default_factory=list)
    kept_tags: bool = False
    # The version the merged story is based on.
    version: int | None = None


def _value(obj: models.Model, name: str):
    value = getattr(obj, name)
    return value.name if isinstance(value, models.fields.files.FieldFile) else value


def _label(name: str) -> str:
    return str(Article._meta.get_field(name.removesuffix("_id")).verbose_name)


def _language(name: str) -> str:
    code = name.rsplit("_", 1)[-1]
    return code if code in dict(settings.LANGUAGES) else ""


def _history_after(article: Article, base_version: int):
    """The story's revisions after `base_version`, oldest first, and the base."""
    register_story_models()  # reading a revision needs its models registered
    later, base = [], None
    versions = (
        Version.objects.get_for_object(article)
        .select_related("revision__user")
        .order_by("-revision__date_created", "-pk")
    )
    for version in versions:
        number = version.field_dict.get("version")
        if number is None or number <= base_version:
            base = version if number == base_version else None
            break
        later.append(version)
    return list(reversed(later)), base


def record_as_found(stored: Article) -> None:
    """Record `stored` as a revision unless its latest revision holds it.

    A story written outside the desk's services (the demo, seed_newsroom, a data
    migration, a shell) has no revision of the version editors opened; recorded
    before the next save changes it, it is the ancestor that save's and every
    concurrent one's merge is made against. Call it under the story's row lock.
    """
    register_story_models()
    latest = (
        Version.objects.get_for_object(stored)
        .order_by("-revision__date_created", "-pk")
        .first()
    )
    if latest is not None:
        recorded = latest.field_dict
        if recorded.get("version") == stored.version and all(
            _same(name, recorded.get(name), _value(stored, name))
            for name in content_fields()
        ):
            return
    revision_record(
        stored,
        by=None,
        comment=_("As found before this save (written outside the desk's forms)"),
    )


def _story_at(stored: Article, version: int) -> Snapshot | None:
    """The story as it was at `version`: the stored row, or its revision."""
    if version == stored.version:
        shot = Snapshot(revision=None)
        shot.article = {name: _value(stored, name) for name in content_fields()}
        shot.tags = sorted(stored.tags.names())
        return shot
    _later, base = _history_after(stored, version)
    return snapshot(base.revision, stored) if base else None


def _take_theirs(edit, stored: Article, merge: Merge) -> None:
    """Put the others' version where the editor chose it after a conflict: the
    value the form was shown, at the version it is based on."""
    shown = _story_at(stored, edit.base_version) if edit.take_theirs else None
    if shown is None:
        return
    fields = set(content_fields())
    article = edit.article
    for choice in edit.take_theirs:
        name, _sep, place = choice.partition(":")
        if name == "row":  # the stored row stays as they left it
            edit.changed = [r for r in edit.changed if _row_key(r) != place]
            edit.deleted = [r for r in edit.deleted if _row_key(r) != place]
        elif name == "tags":
            edit.tags = list(shown.tags)
            merge.kept_tags = True
        elif name in fields and not place:
            setattr(article, name, shown.article.get(name))
            merge.kept_fields.append(name)
        elif name in fields and name in _BODIES:
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
    later, base_version = _history_after(stored, edit.base_version)
    # Without a revision at the editor's version (a form opened before anything
    # recorded one), nothing says who changed what: every difference is a conflict.
    base = snapshot(base_version.revision, stored) if base_version else None
    conflicts: list[Conflict] = []
    for name in content_fields():
        mine, theirs = _value(article, name), _value(stored, name)
        if _same(name, mine, theirs):
            continue
        if base is not None:
            ancestor = base.article.get(name)
            if _same(name, theirs, ancestor):
                continue
            if _same(name, mine, ancestor):
                setattr(article, name, theirs)
                merge.kept_theirs.append(_label(name))
                merge.kept_fields.append(name)
                continue
            if name in _BODIES:
                conflicts += _merge_body(edit, name, base, theirs, later, merge)
                continue
        who = _changer(later, name, base)
        conflicts.append(
            Conflict(
                name,
                _label(name),
                str(theirs or ""),
                _who(who),
                _when(who),
                mine_value=str(mine or ""),
                choice=name,
                language=_language(name),
            )
        )
    if base is not None:
        conflicts += _merge_rows(edit, base, stored, later, merge)
        conflicts += _merge_tags(edit, base, stored, later, merge)
    else:
        if edit.changed or edit.deleted:
            label = _("people, posts, sources and bylines")
            conflicts.append(Conflict("rows", label, "", _who(later), _when(later)))
        if edit.tags is not None and sorted(edit.tags) != sorted(stored.tags.names()):
            conflicts.append(Conflict("tags", _("tags"), "", _who(later), _when(later)))
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
    who = _changer(later, name, base)
    return [
        Conflict(
            name,
            _("%(field)s, paragraph %(number)s")
            % {"field": _label(name), "number": place.at + 1},
            "".join(place.theirs),
            _who(who),
            _when(who),
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
        if not _same(name, value, previous):
            changer = version
        previous = value
    return [changer] if changer else later


def _merge_rows(edit, base, stored: Article, later, merge: Merge) -> list[Conflict]:
    """Related rows: drop echoes of rows only the others changed; refuse overlaps."""
    current = {
        (type(row), row.pk): row
        for _part, rows in row_lists(stored, merged=True)
        for row in rows
    }
    conflicts, kept = [], []
    for row in edit.changed:
        if row.pk is None:
            kept.append(row)
            continue
        ancestor = base.rows.get(type(row), {}).get(str(row.pk), (None, None))[1]
        now = current.get((type(row), row.pk))
        mine, theirs = _row_values(row), _row_values(now) if now else None
        if ancestor is None or theirs == _row_values_from(ancestor, row):
            kept.append(row)  # the others did not touch it: the editor's change
        elif mine == _row_values_from(ancestor, row):
            merge.kept_theirs.append(str(type(row)._meta.verbose_name))
            if now is not None:
                merge.kept_rows.append(now)
        elif mine != theirs:
            conflicts.append(_row_conflict(row, now, later))
    for row in edit.deleted:
        ancestor = base.rows.get(type(row), {}).get(str(row.pk), (None, None))[1]
        now = current.get((type(row), row.pk))
        if (
            now is not None
            and ancestor
            and _row_values(now) != _row_values_from(ancestor, now)
        ):
            conflicts.append(_row_conflict(row, now, later, deleted=True))
    edit.changed = kept
    edit.deleted = [row for row in edit.deleted if (type(row), row.pk) in current]
    return conflicts


def _row_fields(row: models.Model) -> list[models.Field]:
    return [
        f for f in row._meta.concrete_fields if f.attname not in ("id", "article_id")
    ]


def _row_values(row: models.Model) -> dict:
    return {f.attname: canonical(f, getattr(row, f.attname)) for f in _row_fields(row)}


def _row_values_from(field_dict: dict, row: models.Model) -> dict:
    return {
        f.attname: canonical(f, field_dict.get(f.attname)) for f in _row_fields(row)
    }


def _row_key(row: models.Model) -> str:
    return f"{row._meta.model_name}:{row.pk}"


def _row_conflict(row, now, later, *, deleted: bool = False) -> Conflict:
    """A row both changed (or one removed): each side's values of the fields
    that differ, so the two versions can be read side by side."""
    kind = str(type(row)._meta.verbose_name)
    mine = "" if deleted else str(row)
    theirs = str(now or "")
    if now is not None and not deleted:
        differing = [
            f
            for f in _row_fields(row)
            if canonical(f, getattr(row, f.attname))
            != canonical(f, getattr(now, f.attname))
        ]
        mine, theirs = _row_text(row, differing), _row_text(now, differing)
    return Conflict(
        _row_key(row),
        kind,
        theirs,
        _who(later),
        _when(later),
        mine_value=mine,
        choice=f"row:{_row_key(row)}",
    )


def _row_text(row: models.Model, fields: list[models.Field]) -> str:
    return " · ".join(
        f"{f.verbose_name}: {getattr(row, f.name) or '—'}" for f in fields
    )


def _merge_tags(edit, base, stored: Article, later, merge: Merge) -> list[Conflict]:
    if edit.tags is None:
        return []
    ancestor = sorted(base.tags)
    mine = sorted(dict.fromkeys(edit.tags))
    theirs = sorted(stored.tags.names())
    if theirs == ancestor or mine == theirs:
        return []
    if mine == ancestor:
        edit.tags = None  # the editor did not touch them: keep the others' tags
        merge.kept_theirs.append(_("tags"))
        merge.kept_tags = True
        return []
    return [
        Conflict(
            "tags",
            _("tags"),
            ", ".join(theirs),
            _who(later),
            _when(later),
            mine_value=", ".join(mine),
            choice="tags",
        )
    ]


def _who(versions) -> str:
    for version in reversed(versions):
        user = version.revision.user
        if user is not None:
            return user.get_full_name() or user.get_username()
    return _("another editor")


def _when(versions) -> dt.datetime | None:
    return versions[-1].revision.date_created if versions else None
