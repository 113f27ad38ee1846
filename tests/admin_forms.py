"""Reading an admin change form back as the data a browser would post."""

from articles.form_values import posted_data


def change_form_data(response) -> dict[str, str]:
    """What the rendered admin form (with its inlines) posts if nothing is changed."""
    data: dict[str, str] = {}
    all_forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        all_forms += [formset.management_form, *formset.forms]
    for form in all_forms:
        for bound_field in form:
            data.update(posted_data(bound_field))
    return data


def form_errors(response) -> str:
    """Every error on a re-rendered admin form and its inlines, as text."""
    parts = [str(response.context["adminform"].form.errors)]
    for inline in response.context["inline_admin_formsets"]:
        parts += [str(inline.formset.errors), str(inline.formset.non_form_errors())]
    return " ".join(parts)
