"""Admin glue for the one write path: forms check with the service's own rules, and
saves and deletions go through the service."""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import HttpResponseRedirect
from django.utils.formats import date_format
from django.utils.html import strip_tags
from django.utils.text import Truncator
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from .concurrency import EditConflict
from .identity import IdentityLeakError, leak_message


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
    """Each conflicting field says what the other editor saved, who and when."""
    form.add_error(None, error.messages)
    for conflict in error.conflicts:
        field = _form_field(form, conflict.field.removesuffix("_id"))
        if not field:
            continue
        value = Truncator(strip_tags(conflict.their_value)).chars(300) or "—"
        when = (
            date_format(localtime(conflict.at), "DATETIME_FORMAT")
            if conflict.at
            else ""
        )
        form.add_error(
            field,
            _("Changed meanwhile by %(who)s (%(when)s) to: “%(value)s”")
            % {"who": conflict.by, "when": when, "value": value},
        )


def _form_field(form: forms.BaseForm, attribute: str) -> str | None:
    """The form field that edits `attribute` (a byline's staff name: its user)."""
    name = {"staff_name": "user"}.get(attribute, attribute)
    return name if name in form.fields else None


def admin_formsets(instance: models.Model) -> list:
    """The inline formsets submitted with `instance`'s form (see _create_formsets)."""
    return getattr(instance, "_admin_formsets", [])


class ServiceCheckedForm(forms.ModelForm):
    """Runs the service's own check once the instance holds the submitted values,
    with the inline rows as submitted, and shows a refusal where it belongs."""

    service_check = None  # called as service_check(instance, *changed_rows)

    def check_submission(self, changed: list, deleted: list) -> None:
        """Raise the service's ValidationError if the submission would be refused."""
        if self.service_check is not None:
            type(self).service_check(self.instance, *changed)

    def _post_clean(self):
        super()._post_clean()
        if not self.is_bound or self._errors:
            return
        formsets = admin_formsets(self.instance)
        if not all(formset.is_valid() for formset in formsets):
            return  # the admin shows the inline errors first
        try:
            self.check_submission(*saved_rows(formsets))
        except ValidationError as error:
            inline_forms = [form for formset in formsets for form in formset.forms]
            add_service_errors(error, self, inline_forms)


class ServiceAdminMixin:
    """A ModelAdmin whose forms check and whose saves and deletions write through
    services: `save_service(<service_argument>=obj, by=user)` (with `changed` and
    `deleted` inline rows when the admin has inlines), `delete_service` likewise,
    and `check_service(obj, *changed_rows)` for the form's validation."""

    save_service = None
    delete_service = None
    check_service = None
    service_argument = ""

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if self.check_service is None:
            return form
        return type(
            form.__name__,
            (ServiceCheckedForm, form),
            {"service_check": staticmethod(self.check_service)},
        )

    def _call(self, service, request, obj):
        service(**{self.service_argument: obj, "by": request.user})

    def _create_formsets(self, request, obj, change):
        formsets, inline_instances = super()._create_formsets(request, obj, change)
        # Django validates the main form before its inlines, but a check must see
        # the whole submission; the form reads the inlines from its instance.
        obj._admin_formsets = formsets
        return formsets, inline_instances

    def save_model(self, request, obj, form, change):
        if not self.inlines:
            self._call(self.save_service, request, obj)

    def save_related(self, request, form, formsets, change):
        if not self.inlines:
            return super().save_related(request, form, formsets, change)
        changed, deleted = saved_rows(formsets)
        self.save_service(
            **{self.service_argument: form.instance},
            by=request.user,
            changed=changed,
            deleted=deleted,
        )

    def delete_model(self, request, obj):
        self._call(self.delete_service, request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self._call(self.delete_service, request, obj)

    def changeform_view(self, request, *args, **kwargs):
        return refusals_as_messages(
            self, request, super().changeform_view, *args, **kwargs
        )

    def changelist_view(self, request, *args, **kwargs):
        return refusals_as_messages(
            self, request, super().changelist_view, *args, **kwargs
        )

    def delete_view(self, request, *args, **kwargs):
        return refusals_as_messages(self, request, super().delete_view, *args, **kwargs)


def saved_rows(formsets) -> tuple[list[models.Model], list[models.Model]]:
    """What the inline formsets would save and delete, computed without writing.

    `save(commit=False)` also records what the history message lists.
    """
    changed, deleted = [], []
    for formset in formsets:
        changed += formset.save(commit=False)
        deleted += formset.deleted_objects
    return changed, deleted


def refusals_as_messages(model_admin, request, view, *args, **kwargs):
    """Call an admin view; a service's refusal that got past the form (a change made
    meanwhile, an inline list edit) becomes a message instead of an error page. The
    view's transaction has rolled back, so nothing was half-saved."""
    try:
        return view(request, *args, **kwargs)
    except ValidationError as refusal:
        model_admin.message_user(request, " ".join(refusal.messages), messages.ERROR)
    except PermissionDenied as refusal:
        if not str(refusal):
            raise
        model_admin.message_user(request, str(refusal), messages.ERROR)
    return HttpResponseRedirect(request.get_full_path())
