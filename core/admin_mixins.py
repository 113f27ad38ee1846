"""What every newsroom admin shares: bidi-safe inputs, Arabic-aware search, tabs."""

from django import forms
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.db import models
from modeltranslation.admin import TranslationAdmin

from arabic import search_fold

# Widgets where an editor types free text; `dir="auto"` lets the browser pick the
# direction from the first strong character, so Arabic and Latin both edit correctly.
_TEXT_INPUT_TYPES = {"text", "search", "url", "email"}


def _wants_dir_auto(widget: forms.Widget) -> bool:
    if isinstance(widget, forms.Textarea):
        return True
    return (
        isinstance(widget, forms.widgets.Input)
        and widget.input_type in _TEXT_INPUT_TYPES
    )


def https_formfield(db_field, **kwargs):
    """A model field's form field; links pasted without a scheme become https.

    Use as `Meta.formfield_callback` of model forms declared at import time.
    """
    if isinstance(db_field, models.URLField):
        kwargs.setdefault("assume_scheme", "https")
    return db_field.formfield(**kwargs)


class DirAutoMixin:
    """Put `dir="auto"` on every text input and textarea of the admin's forms."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if isinstance(db_field, models.URLField):
            # Links pasted without a scheme are completed as https (Django 6 default).
            kwargs.setdefault("assume_scheme", "https")
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if formfield is not None:
            widget = formfield.widget
            if isinstance(widget, RelatedFieldWidgetWrapper):
                widget = widget.widget
            if _wants_dir_auto(widget):
                widget.attrs.setdefault("dir", "auto")
        return formfield


class ArabicSearchMixin:
    """Search folded text: the query is folded like the model's `search_text`.

    `search_fields` of an admin using this mixin must hold text folded by
    arabic.search_fold (the models' derived `search_text`), so "الاسد" finds
    "الأسد", "مهرب" finds "مهرّب", "مسئول" finds "مسؤول" and "١٢" finds "12".
    The autocomplete widgets search through the same method.
    """

    search_fields = ("search_text",)

    def get_search_results(self, request, queryset, search_term):
        return super().get_search_results(request, queryset, search_fold(search_term))


class TranslationTabsMixin:
    """Show each translated field's languages as tabs, without jQuery UI or a CDN.

    The script only hides the rows of the languages not selected; without it every
    language's field stays visible and usable.
    """

    class Media:
        # The styles come with every admin page from templates/admin/base_site.html.
        js = ("admin_ext/translation_tabs.js",)


class NewsroomTranslationAdmin(TranslationTabsMixin, DirAutoMixin, TranslationAdmin):
    """Base for the admins of translated models."""
