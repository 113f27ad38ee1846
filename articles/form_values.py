"""What the story form shows again after a refusal: values as a browser would post
them, and the new rows the body already places."""

from django import forms
from django.db import models

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
