"""Reading an admin change form back as the data a browser would post."""

from django import forms


def _field_data(bound_field) -> dict[str, str]:
    widget = bound_field.field.widget
    name = bound_field.html_name
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


def change_form_data(response) -> dict[str, str]:
    """What the rendered admin form (with its inlines) posts if nothing is changed."""
    data: dict[str, str] = {}
    all_forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        all_forms += [formset.management_form, *formset.forms]
    for form in all_forms:
        for bound_field in form:
            data.update(_field_data(bound_field))
    return data


def form_errors(response) -> str:
    """Every error on a re-rendered admin form and its inlines, as text."""
    parts = [str(response.context["adminform"].form.errors)]
    for inline in response.context["inline_admin_formsets"]:
        parts += [str(inline.formset.errors), str(inline.formset.non_form_errors())]
    return " ".join(parts)
