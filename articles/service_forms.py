"""Forms that check a submission with the service's own rules before anything is
saved, and show a refusal where it belongs (a leak on its field, a conflict with the
other editor's value)."""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.formats import date_format
from django.utils.functional import cached_property
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from identity.gate import IdentityLeakError, leak_message
from identity.refusals import write_door

from .concurrency import EditConflict


def add_service_errors(
    error: ValidationError, form: forms.BaseForm, related=()
) -> None:
    """Show a service's refusal on the form: each leak on the field that holds it
    (on `form` or on one of the `related` inline forms), the rest above the form."""
    if isinstance(error, EditConflict):
        _add_conflicts(error, form)
        return
    if not isinstance(error, IdentityLeakError):
        form.add_error(None, error.messages)
        return
    unplaced = []
    for leak in error.leaks:
        holder = next((f for f in [form, *related] if f.instance is leak.obj), None)
        field = _form_field(holder, leak.field) if holder else None
        if field:
            holder.add_error(field, leak_message())
        else:
            unplaced.append(leak)
    if unplaced:
        form.add_error(None, IdentityLeakError(unplaced).messages)


def _add_conflicts(error: EditConflict, form: forms.BaseForm) -> None:
    """Each conflicting field says who changed it meanwhile; both versions are
    shown side by side above the form (edit_conflicts.html)."""
    form.add_error(None, error.messages)
    marked = set()
    for conflict in error.conflicts:
        field = _form_field(form, conflict.field.removesuffix("_id"))
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
                "Changed meanwhile by %(who)s (%(when)s): both versions are shown "
                "above the form, to keep yours or take theirs."
            )
            % {"who": conflict.by, "when": when},
        )


def _form_field(form: forms.BaseForm, attribute: str) -> str | None:
    """The form field that edits `attribute` (a byline's staff name: its user)."""
    name = {"staff_name": "user"}.get(attribute, attribute)
    return name if name in form.fields else None


class DoorCheckedForm(forms.ModelForm):
    """A form checked at the service's door before anything is saved: the admin
    sets `door` and `door_user` (ServiceAdminMixin.get_form), so the check is
    refused while the user's saves are paused and a refusal by the identity gate
    is recorded, as the service itself would.

    Once the fields are valid and the instance holds them, `door_check()` runs (a
    subclass says what it checks); its refusal shows on the form."""

    door = ""
    door_user = None

    def full_clean(self):
        super().full_clean()
        if self.is_bound and not self.errors:
            self.check_at_door(self.door_check, self.door_related())

    def door_check(self) -> None:
        """Raise the service's ValidationError if the submission would be refused."""

    def door_related(self) -> list[forms.BaseForm]:
        """Other forms of the submission a refusal may be shown on."""
        return []

    def check_at_door(self, check, related=()) -> None:
        """Run `check()`; show its refusal on the form (and on `related` forms)."""
        try:
            with write_door(self.door or "admin", by=self.door_user):
                check()
        except ValidationError as error:
            self.show_refusal(error, related)

    def show_refusal(self, error: ValidationError, related=()) -> None:
        add_service_errors(error, self, related)


class ServiceCheckedForm(DoorCheckedForm):
    """A form that holds its inline formsets (the modelcluster idea: the form is
    the whole submission), validates them with itself, and runs the service's own
    check over the instance and the rows as submitted, showing a refusal where it
    belongs.

    The admin gives the class `formsets_for(form)`, which makes the form's
    formsets as the admin would (ServiceAdminMixin.get_form)."""

    service_check = None  # called as service_check(instance, *changed_rows)
    formsets_for = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        made = type(self).formsets_for(self) if self.formsets_for else []
        # (formset, its inline, editable) for each inline; `formsets` are those
        # the user may change, validated and saved with the form (a view-only
        # inline is only shown).
        self.inline_formsets = made
        self.formsets = [formset for formset, _inline, editable in made if editable]

    def is_valid(self) -> bool:
        valid = super().is_valid()
        return all([formset.is_valid() for formset in self.formsets]) and valid

    def door_check(self) -> None:
        # Once the rows are valid too: the admin shows an inline's own errors
        # before a refusal of the whole.
        if all(formset.is_valid() for formset in self.formsets):
            self.check_submission(*self.submitted_rows)

    def door_related(self) -> list[forms.BaseForm]:
        return [form for formset in self.formsets for form in formset.forms]

    @cached_property
    def submitted_rows(self) -> tuple[list[models.Model], list[models.Model]]:
        """The inline rows the submission would save and delete (saved_rows)."""
        return saved_rows(self.formsets)

    def check_submission(self, changed: list, deleted: list) -> None:
        """Raise the service's ValidationError if the submission would be refused."""
        if self.service_check is not None:
            type(self).service_check(self.instance, *changed)


def saved_rows(formsets) -> tuple[list[models.Model], list[models.Model]]:
    """What the inline formsets would save and delete, computed without writing.

    `save(commit=False)` also records what the history message lists.
    """
    changed, deleted = [], []
    for formset in formsets:
        changed += formset.save(commit=False)
        deleted += formset.deleted_objects
    return changed, deleted


_OWN = object()


def posted_data(bound_field: forms.BoundField, value=_OWN) -> dict[str, str]:
    """What a browser posts for `bound_field` showing `value` (by default its own):
    the keys its widget reads back, a split date and time's two included."""
    widget = bound_field.field.widget
    name = bound_field.html_name
    if value is _OWN:
        value = bound_field.value()
    if isinstance(widget, forms.MultiWidget):
        parts = value if isinstance(value, list | tuple) else widget.decompress(value)
        return {
            f"{name}{widget.widgets_names[i]}": "" if part is None else str(part)
            for i, part in enumerate(parts)
        }
    if isinstance(widget, forms.CheckboxInput):
        return {name: "on"} if value else {}
    if isinstance(widget, forms.ClearableFileInput):
        return {}
    shown = widget.format_value(bound_field.field.prepare_value(value))
    if isinstance(shown, list):  # a single-choice select formats as a list
        shown = shown[0] if shown else ""
    return {name: "" if shown is None else str(shown)}


def show_values(form: forms.BaseForm, values: dict[str, object]) -> None:
    """Have a bound form (and the forms sharing its data) show `values`, by field
    name, when it is rendered again: as if the browser had posted them."""
    data = form.data.copy()
    for name, value in values.items():
        if name not in form.fields:
            continue
        bound_field = form[name]
        shown = posted_data(bound_field, value)
        if not shown and bound_field.html_name in data:
            del data[bound_field.html_name]  # an unticked box posts nothing
        for key, posted in shown.items():
            data[key] = posted
    form.data = data


def new_rows_by_key(formsets) -> dict[str, models.Model]:
    """New inline rows the body already places, by the key their form was given
    (`placement_key`, set by the body editor): they have no number until saved."""
    keyed = {}
    for formset in formsets:
        for form in formset.forms:
            key = getattr(form, "cleaned_data", {}).get("placement_key")
            if key and form.instance.pk is None:
                keyed[key] = form.instance
    return keyed
