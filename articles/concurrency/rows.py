"""Merging the rows of a story's merged parts (articles.parts) and its tags, row by
row: an untouched stale copy is dropped, a row both changed is a conflict."""

from django.db import models
from django.utils.translation import gettext as _

from ..models import Article
from ..parts import row_lists
from .ancestor import canonical
from .outcome import Conflict, Merge, when, who


def merge_rows(edit, base, stored: Article, later, merge: Merge) -> list[Conflict]:
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


def row_key(row: models.Model) -> str:
    """The name of a row in a conflict and in the choice to take theirs."""
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
        row_key(row),
        kind,
        theirs,
        who(later),
        when(later),
        mine_value=mine,
        choice=f"row:{row_key(row)}",
    )


def _row_text(row: models.Model, fields: list[models.Field]) -> str:
    return " · ".join(
        f"{f.verbose_name}: {getattr(row, f.name) or '—'}" for f in fields
    )


def merge_tags(edit, base, stored: Article, later, merge: Merge) -> list[Conflict]:
    """Tags: the others' tags stay when the editor left them; both changed differently
    is a conflict."""
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
            who(later),
            when(later),
            mine_value=", ".join(mine),
            choice="tags",
        )
    ]
