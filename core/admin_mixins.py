"""What every newsroom admin shares: bidi-safe inputs, Arabic-aware search, tabs,
and query values kept within what the database can hold."""

from datetime import datetime

from django import forms
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import IGNORED_PARAMS, PAGE_VAR
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import connections, models, router
from django.db.models.constants import LOOKUP_SEP
from modeltranslation.admin import TranslationAdmin

from arabic import search_fold
from core.echo import typed

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


class EchoedSearchMixin:
    """Search for what the user typed where the list shows a token for it.

    For a user who may not read legal names the admin's redaction stands a token
    for the search term while the page is read (identity.redaction, core.echo);
    every admin of the site gets this (newsroom.admin.NewsroomAdminSite.register),
    first in line, so every admin's own search reads the words.
    """

    def get_search_results(self, request, queryset, search_term):
        return super().get_search_results(
            request, queryset, typed(request, search_term)
        )


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


class QueryBoundsMixin:
    """Refuse, before the database sees them, query values no column could hold.

    Every admin of the site gets it (newsroom.admin.NewsroomAdminSite.register).
    A change list asked to filter an integer column by a number outside the
    column's range (`?id__in=1,9223372036854775808`: SQLite's driver overflows,
    PostgreSQL refuses) or to show a date hierarchy's year 9999 or 10**40 (the
    next year, or the year itself, is no date) answers as Django answers any
    invalid lookup: back to the list, with `?e=1`. An add or change form's
    initial values from the address (`?section=abc`) that are no value of their
    field are left out, instead of being looked up (an autocomplete widget reads
    its selected rows) or handed as text to a widget that expects a date.
    """

    def get_changelist_instance(self, request):
        for name, values in request.GET.lists():
            if name in IGNORED_PARAMS or name == PAGE_VAR:
                continue
            if not _integers_fit(self.model, name, values):
                raise IncorrectLookupParameters(f"{name}: out of range")
        if self.date_hierarchy and not _date_hierarchy_fits(
            request.GET, self.date_hierarchy
        ):
            raise IncorrectLookupParameters(f"{self.date_hierarchy}: no such date")
        try:
            return super().get_changelist_instance(request)
        except OverflowError as error:
            # Raised in Python, before anything reached the database: a value of
            # the address too large for a date or a driver's integer.
            raise IncorrectLookupParameters(error) from error

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        held = {}
        for name, value in initial.items():
            try:
                field = self.model._meta.get_field(name)
            except FieldDoesNotExist:
                field = None
            if field is None or not _from_address(value):
                # An admin's own initial values (a form's extra field, an object)
                # are its business; only the address's text is checked.
                held[name] = value
                continue
            try:
                held[name] = _initial_value(field, value)
            except (ValidationError, ValueError, TypeError, OverflowError):
                continue
        return held


_NUMERIC_LOOKUPS = {"exact", "gt", "gte", "lt", "lte", "in", "range"}
_LISTS = {"in", "range"}


def _lookup_target(model, name: str) -> tuple[models.Field | None, str]:
    """The field a lookup path such as `section__id__exact` ends on, and its
    lookup ("exact" when none is named); (None, "") when it is no such path."""
    opts = model._meta
    field = None
    parts = name.split(LOOKUP_SEP)
    for index, part in enumerate(parts):
        try:
            field = opts.pk if part == "pk" else opts.get_field(part)
        except FieldDoesNotExist:
            if field is None:
                return None, ""
            return field, LOOKUP_SEP.join(parts[index:])
        if field.is_relation:
            if field.related_model is None:
                return None, ""
            if index == len(parts) - 1:
                return _relation_target(field), "exact"
            opts = field.related_model._meta
    return field, "exact"


def _relation_target(field) -> models.Field:
    # A relation named without a field filters on the related row's key.
    target = getattr(field, "target_field", None)
    return target if target is not None else field.related_model._meta.pk


def _integer_range(model, field: models.Field) -> tuple[int | None, int | None]:
    connection = connections[router.db_for_read(model)]
    try:
        return connection.ops.integer_field_range(field.get_internal_type())
    except KeyError:
        return None, None


def _fits(number: int, bounds: tuple[int | None, int | None]) -> bool:
    low, high = bounds
    return (low is None or number >= low) and (high is None or number <= high)


def _integers_fit(model, name: str, values: list[str]) -> bool:
    field, lookup = _lookup_target(model, name)
    if not isinstance(field, models.IntegerField) or lookup not in _NUMERIC_LOOKUPS:
        return True
    bounds = _integer_range(field.model, field)
    for value in values:
        for part in value.split(",") if lookup in _LISTS else [value]:
            try:
                number = int(part)
            except ValueError:
                continue  # not a number: Django refuses it as an invalid lookup
            if not _fits(number, bounds):
                return False
    return True


def _date_hierarchy_fits(params, field_name: str) -> bool:
    """Whether the date hierarchy's year, month and day name a date whose next day,
    month or year (the end of the range Django filters on) is a date too."""
    year = params.get(f"{field_name}__year")
    if year is None:
        return True
    month = params.get(f"{field_name}__month")
    day = params.get(f"{field_name}__day")
    try:
        start = datetime(int(year), int(month or 1), int(day or 1))
        # A year's first hours fall in the year before in UTC: keep clear of year 1.
        return datetime.min.year < start.year < datetime.max.year
    except (ValueError, OverflowError):
        return False


def _from_address(value) -> bool:
    # Django reads initial values from the query string as text, a list of texts
    # for a many-to-many field.
    if isinstance(value, list):
        return all(isinstance(part, str) for part in value)
    return isinstance(value, str)


def _initial_value(field, value):
    """An initial value from the address as its field holds it; raises
    ValidationError (or ValueError, OverflowError) when the field cannot."""
    if field.many_to_many or field.one_to_many:
        target = _relation_target(field)
        for part in value if isinstance(value, list) else [value]:
            _check_integer(target, target.to_python(part))
        return value
    if field.is_relation:
        target = _relation_target(field)
        _check_integer(target, target.to_python(value))
        return value
    return _check_integer(field, field.to_python(value))


def _check_integer(field, value):
    integer = isinstance(field, models.IntegerField) and value is not None
    if integer and not _fits(int(value), _integer_range(field.model, field)):
        raise ValidationError("out of range")
    return value
