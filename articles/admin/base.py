"""Admin glue for the one write path: saves and deletions go through the service,
and a refusal that gets past the form becomes a message."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect

from identity.gate import IdentityLeakError
from identity.refusals import refusal_kept

from ..service_forms import (
    DoorCheckedForm,
    RecordedFormSet,
    ServiceCheckedForm,
    saved_rows,
)


class ServiceAdminMixin:
    """A ModelAdmin whose forms check and whose saves and deletions write through
    services: `save_service(<service_argument>=obj, by=user)` (with `changed` and
    `deleted` inline rows when the admin has inlines), `delete_service` likewise,
    and `check_service(obj, *changed_rows)` for the form's validation, made at the
    service's door (`door`, by default the save service's) for the user asking."""

    save_service = None
    delete_service = None
    check_service = None
    service_argument = ""
    door = ""

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        at_door = {
            "door": self.door or getattr(self.save_service, "door", ""),
            "door_user": request.user,
        }
        if self.check_service is not None:
            return type(
                form.__name__,
                (ServiceCheckedForm, form),
                {"service_check": staticmethod(self.check_service), **at_door},
            )
        if issubclass(form, DoorCheckedForm):
            # Set on the class made for this request (modelform_factory makes one
            # per call): a subclass would build its fields afresh, losing what
            # other mixins set on them (the body editor's posts and images).
            for name, value in at_door.items():
                setattr(form, name, value)
        return form

    def _call(self, service, request, obj):
        service(**{self.service_argument: obj, "by": request.user})

    def get_formsets_with_inlines(self, request, obj=None):
        # Django validates the main form before its inlines, but a check must see
        # the whole submission: each inline formset records itself on the instance
        # the form reads (admin_formsets()). Every inline, an app's own included,
        # comes through this public hook, so none can be left out of the check.
        # It relies on the formsets being made before the form is validated
        # (checked against Django 5.2), which test_admin.py pins with
        # test_publishing_with_a_legal_name_in_a_social_post_is_refused.
        for formset, inline in super().get_formsets_with_inlines(request, obj):
            yield type(formset.__name__, (RecordedFormSet, formset), {}), inline

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


def refusals_as_messages(model_admin, request, view, *args, **kwargs):
    """Call an admin view; a service's refusal that got past the form (a change made
    meanwhile, an inline list edit) becomes a message instead of an error page. The
    view's transaction has rolled back, so nothing was half-saved, and a refusal by
    the identity gate is recorded again if that rollback undid its record."""
    try:
        return view(request, *args, **kwargs)
    except ValidationError as refusal:
        if isinstance(refusal, IdentityLeakError):
            refusal_kept(refusal)  # its record went with the view's rollback
        model_admin.message_user(request, " ".join(refusal.messages), messages.ERROR)
    except PermissionDenied as refusal:
        if not str(refusal):
            raise
        model_admin.message_user(request, str(refusal), messages.ERROR)
    return HttpResponseRedirect(request.get_full_path())
