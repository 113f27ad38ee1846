"""No lost updates: an edit based on an older version of a story is merged with what
changed since, field by field, or refused where both touched the same thing.

The editor's form carries the version it was opened at (`StoryEdit.base_version`).
If the story has moved on since, its revision at that version is the common
ancestor: a field only the editor changed keeps the editor's value, a field only the
others changed keeps theirs, and a field both changed to different values is a
conflict, reported with the other value, who saved it and when. The rows of the
story's merged parts (articles.parts) and its tags follow the same rule row by row.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from modeltranslation.translator import translator
from reversion.models import Version

from .models import Article
from .parts import row_lists
from .revisions import NOT_VERSIONED, snapshot

# Columns that are not the editor's words: the workflow, counters and bookkeeping.
_NOT_EDITED = {"id", "status", "published_at", "created_at", "created_by_id", "version"}


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


@dataclass(frozen=True)
class Conflict:
    """One thing both editors changed differently."""

    field: str  # an Article attribute, or "<model>:<pk>" for a related row, or "tags"
    label: str
    their_value: str
    by: str
    at: datetime | None


class EditConflict(ValidationError):
    """The edit overlaps what others saved since the editor opened the story."""

    def __init__(self, conflicts: list[Conflict]):
        self.conflicts = conflicts
        super().__init__(
            _(
                "Someone else changed this story after you opened it, in the same "
                "places: %(places)s. Your text is kept below; compare it with theirs "
                "and save again."
            )
            % {"places": _(", ").join(c.label for c in conflicts)},
            code="edit_conflict",
        )


@dataclass
class Merge:
    """What an edit keeps of the others' changes: labels for the editor, and the
    story's attributes, so a form can show the merged values."""

    kept_theirs: list[str] = field(default_factory=list)
    kept_fields: list[str] = field(default_factory=list)


def _value(obj: models.Model, name: str):
    value = getattr(obj, name)
    return value.name if isinstance(value, models.fields.files.FieldFile) else value


def _label(name: str) -> str:
    return str(Article._meta.get_field(name.removesuffix("_id")).verbose_name)


def _history_after(article: Article, base_version: int):
    """The story's revisions after `base_version`, oldest first, and the base."""
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


def merge_edit(edit, stored: Article) -> Merge:
    """Bring `edit` up to date with `stored` when it was based on an older version.

    Changes `edit` in place (fields and rows only the others changed take their
    values) and raises EditConflict where both sides changed the same thing.
    """
    merge = Merge()
    if edit.base_version is None or edit.base_version == stored.version:
        return merge
    article = edit.article
    later, base_version = _history_after(stored, edit.base_version)
    # Without a revision at the editor's version (a story last saved outside the
    # desk), nothing says who changed what: every difference is a conflict.
    base = snapshot(base_version.revision, stored) if base_version else None
    conflicts: list[Conflict] = []
    for name in content_fields():
        mine, theirs = _value(article, name), _value(stored, name)
        ancestor = base.article.get(name) if base else object()
        if mine == theirs or theirs == ancestor:
            continue
        if mine == ancestor:
            setattr(article, name, theirs)
            merge.kept_theirs.append(_label(name))
            merge.kept_fields.append(name)
            continue
        who = next(
            (v for v in reversed(later) if v.field_dict.get(name) == theirs), None
        )
        conflicts.append(
            Conflict(
                name,
                _label(name),
                str(theirs or ""),
                _who([who] if who else later),
                _when([who] if who else later),
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
        raise EditConflict(conflicts)
    edit.base_version = stored.version
    return merge


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
            conflicts.append(_row_conflict(row, now, later))
    edit.changed = kept
    edit.deleted = [row for row in edit.deleted if (type(row), row.pk) in current]
    return conflicts


def _row_fields(row: models.Model) -> list[str]:
    return [
        f.attname
        for f in row._meta.concrete_fields
        if f.attname not in ("id", "article_id")
    ]


def _row_values(row: models.Model) -> dict:
    return {name: getattr(row, name) for name in _row_fields(row)}


def _row_values_from(field_dict: dict, row: models.Model) -> dict:
    return {name: field_dict.get(name) for name in _row_fields(row)}


def _row_conflict(row, now, later) -> Conflict:
    kind = str(type(row)._meta.verbose_name)
    return Conflict(
        f"{row._meta.model_name}:{row.pk}",
        kind,
        str(now or ""),
        _who(later),
        _when(later),
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
        return []
    return [Conflict("tags", _("tags"), ", ".join(theirs), _who(later), _when(later))]


def _who(versions) -> str:
    for version in reversed(versions):
        user = version.revision.user
        if user is not None:
            return user.get_full_name() or user.get_username()
    return _("another editor")


def _when(versions) -> datetime | None:
    return versions[-1].revision.date_created if versions else None
