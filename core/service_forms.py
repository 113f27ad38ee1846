"""Forms that check a submission with the service's own rules before anything is
saved, and show a refusal where it belongs.

A service's refusal is a ValidationError. One that knows where it belongs on a form
(a leak on the field that holds it, a conflict beside the other editor's value)
has a `show_on(form, related)` method; any other is shown above the form.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.functional import cached_property

from .doors import passing


def add_service_errors(
    error: ValidationError, form: forms.BaseForm, related=()
) -> None:
    """Show a service's refusal on `form` (or on one of the `related` inline forms
    of the same submission)."""
    show_on = getattr(error, "show_on", None)
    if show_on is None:
        form.add_error(None, error.messages)
    else:
        show_on(form, related)


def form_field(form: forms.BaseForm, attribute: str) -> str | None:
    """The field of `form` that edits its instance's `attribute`: the attribute's
    own, or the one it is derived from (`public_field_sources` on the model: a
    byline's staff name comes from its user)."""
    sources = getattr(form.instance, "public_field_sources", {})
    name = attribute if attribute in form.fields else sources.get(attribute)
    return name if name in form.fields else None


class DoorCheckedForm(forms.ModelForm):
    """A form checked at the service's door before anything is saved: the admin
    sets `door` and `door_user` (ServiceAdminMixin.get_form), so the check is
    refused while the user's saves are paused and its refusals are recorded, as
    the service itself would (core.doors).

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
            with passing(self.door or "admin", by=self.door_user):
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
