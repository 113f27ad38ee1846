"""What a merge of concurrent edits reports: what it kept of the others' changes,
and the places both changed (a refusal)."""

import datetime as dt
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from core.service_forms import form_field


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

    def show_on(self, form, related=()) -> None:
        """Each conflicting field of `form` says who changed it meanwhile; both
        versions are shown side by side above the form (edit_conflicts.html)."""
        form.add_error(None, self.messages)
        marked = set()
        for conflict in self.conflicts:
            field = form_field(form, conflict.field.removesuffix("_id"))
            if not field or field in marked:
                continue
            marked.add(field)
            when = (
                date_format(localtime(conflict.at), "DATETIME_FORMAT")
                if conflict.at
                else ""
            )
            form.add_error(
                field,
                _(
                    "Changed meanwhile by %(who)s (%(when)s): both versions are "
                    "shown above the form, to keep yours or take theirs."
                )
                % {"who": conflict.by, "when": when},
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


def who(versions) -> str:
    """Who saved the last of `versions` that a known user saved."""
    for version in reversed(versions):
        user = version.revision.user
        if user is not None:
            return user.get_full_name() or user.get_username()
    return _("another editor")


def when(versions) -> dt.datetime | None:
    """When the last of `versions` was saved."""
    return versions[-1].revision.date_created if versions else None
