"""Comparing two versions of a story, field by field, as an editor reads it: two
revisions on the history page, or the editor's version and the others' after a
conflict.

The body is compared paragraph by paragraph and, inside a changed paragraph, word by
word; related rows (people, posts, attributions, bylines) as added, removed or
changed. Every piece of text is escaped here, so the page only shows the result.
"""

import difflib
import html
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.utils.html import escape, strip_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from modeltranslation.translator import translator

from .body import split_blocks
from .concurrency import Conflict
from .models import Article
from .revisions import Snapshot

# The story's translated fields (articles/translation.py), in the model's order.
TEXT_FIELDS = [
    f.name
    for f in Article._meta.fields
    if f.name in translator.get_options_for_model(Article).fields
]
OTHER_FIELDS = ["language", "section_id", "is_breaking", "hero_image_id"]
BODY_FIELDS = {f"body_{code}" for code, _language in settings.LANGUAGES}


@dataclass
class Line:
    """One row of a side-by-side comparison: the old text and the new."""

    old: SafeString
    new: SafeString
    kind: str  # "same", "changed", "added", "removed"


@dataclass
class FieldChange:
    """A field that differs between the two revisions, with its lines."""

    label: str
    language: str
    lines: list[Line] = field(default_factory=list)


@dataclass
class RowChange:
    """A related row added, removed or changed between the two revisions."""

    kind_label: str
    change: str  # "added", "removed", "changed"
    old: str
    new: str
    fields: list[str] = field(default_factory=list)


@dataclass
class Comparison:
    fields: list[FieldChange]
    rows: list[RowChange]
    tags_added: list[str]
    tags_removed: list[str]

    @property
    def is_empty(self) -> bool:
        return not (self.fields or self.rows or self.tags_added or self.tags_removed)


def compare(old: Snapshot, new: Snapshot) -> Comparison:
    """What changed from `old` to `new`."""
    return Comparison(
        fields=_field_changes(old.article, new.article),
        rows=_row_changes(old, new),
        tags_added=sorted(set(new.tags) - set(old.tags)),
        tags_removed=sorted(set(old.tags) - set(new.tags)),
    )


def _label(name: str) -> str:
    return str(Article._meta.get_field(name.removesuffix("_id")).verbose_name)


def _field_changes(old: dict, new: dict) -> list[FieldChange]:
    changes = []
    for name in TEXT_FIELDS:
        for code, _language in settings.LANGUAGES:
            key = f"{name}_{code}"
            before, after = old.get(key) or "", new.get(key) or ""
            if before == after:
                continue
            change = FieldChange(_label(name), code)
            if name == "body":
                change.lines = paragraph_lines(paragraphs(before), paragraphs(after))
            else:
                change.lines = [word_line(before, after)]
            changes.append(change)
    for name in OTHER_FIELDS:
        before, after = old.get(name), new.get(name)
        if before != after:
            line = Line(escape(_shown(before)), escape(_shown(after)), "changed")
            changes.append(FieldChange(_label(name), "", [line]))
    return changes


def _shown(value) -> str:
    if value in (None, ""):
        return "—"
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    return str(value)


def paragraphs(body: str) -> list[str]:
    """The body's paragraphs as the reader's text, without markup."""
    return [html.unescape(strip_tags(block)).strip() for block in split_blocks(body)]


def paragraph_lines(old: list[str], new: list[str]) -> list[Line]:
    """Two versions of a body's paragraphs aligned, the changed words marked."""
    lines = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            lines += [Line(escape(p), escape(p), "same") for p in old[i1:i2]]
            continue
        before, after = old[i1:i2], new[j1:j2]
        for index in range(max(len(before), len(after))):
            a = before[index] if index < len(before) else None
            b = after[index] if index < len(after) else None
            if a is None:
                lines.append(Line(mark_safe(""), escape(b), "added"))
            elif b is None:
                lines.append(Line(escape(a), mark_safe(""), "removed"))
            else:
                lines.append(word_line(a, b))
    return lines


def word_line(old: str, new: str) -> Line:
    """Two versions of one text with the words that differ marked."""
    a, b = old.split(), new.split()
    left, right = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b).get_opcodes():
        removed, added = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        if tag == "equal":
            left.append(escape(removed))
            right.append(escape(added))
            continue
        if removed:
            left.append(f"<del>{escape(removed)}</del>")
        if added:
            right.append(f"<ins>{escape(added)}</ins>")
    # Every piece was escaped above; only <del>/<ins> are markup.
    return Line(mark_safe(" ".join(left)), mark_safe(" ".join(right)), "changed")


def _row_changes(old: Snapshot, new: Snapshot) -> list[RowChange]:
    changes = []
    for model in dict.fromkeys([*old.rows, *new.rows]):
        kind = str(model._meta.verbose_name)
        before, after = old.rows.get(model, {}), new.rows.get(model, {})
        for pk in dict.fromkeys([*before, *after]):
            if pk not in before:
                changes.append(RowChange(kind, "added", "", after[pk][0]))
            elif pk not in after:
                changes.append(RowChange(kind, "removed", before[pk][0], ""))
            else:
                (old_repr, old_fields), (new_repr, new_fields) = before[pk], after[pk]
                differing = [
                    str(model._meta.get_field(name.removesuffix("_id")).verbose_name)
                    for name in new_fields
                    if old_fields.get(name) != new_fields.get(name)
                    and name not in ("id", "article_id")
                ]
                if differing:
                    changes.append(
                        RowChange(kind, "changed", old_repr, new_repr, differing)
                    )
    return changes


@dataclass
class ConflictShown:
    """A conflict as the story form shows it: the editor's version and the others'
    side by side, by paragraph, with the differing words marked, and the name and
    value of the "take theirs" choice (none for related rows)."""

    label: str
    by: str
    at: datetime | None
    language: str
    mine: list[SafeString]
    theirs: list[SafeString]
    input_name: str
    choice: str

    @property
    def compared(self) -> bool:
        """Whether there are versions to show (a save with no ancestor to read
        them from names only the place)."""
        return bool(self.mine or self.theirs or self.choice)


def conflicts_shown(conflicts: list[Conflict]) -> list[ConflictShown]:
    """How each conflict of a refused save is shown on the form."""
    shown = []
    for number, conflict in enumerate(conflicts, start=1):
        if conflict.field in BODY_FIELDS:
            lines = paragraph_lines(
                paragraphs(conflict.mine_value), paragraphs(conflict.their_value)
            )
        else:
            lines = [word_line(conflict.mine_value, conflict.their_value)]
        shown.append(
            ConflictShown(
                label=conflict.label,
                by=conflict.by,
                at=conflict.at,
                language=conflict.language,
                mine=[line.old for line in lines if line.old],
                theirs=[line.new for line in lines if line.new],
                input_name=f"conflict-{number}",
                choice=conflict.choice,
            )
        )
    return shown
