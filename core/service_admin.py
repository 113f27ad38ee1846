"""Admin glue for the one write path: saves and deletions go through the service,
and a refusal that gets past the form becomes a message."""

from functools import partial

from django.contrib import messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect

from .service_forms import DoorCheckedForm, ServiceCheckedForm


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
        if self.check_service or self.inlines or issubclass(form, ServiceCheckedForm):
            checked = {"formsets_for": staticmethod(partial(self.formsets_of, request))}
            if self.check_service is not None:
                checked["service_check"] = staticmethod(self.check_service)
            if not issubclass(form, ServiceCheckedForm):
                return type(
                    form.__name__, (ServiceCheckedForm, form), {**checked, **at_door}
                )
            at_door.update(checked)
        if issubclass(form, DoorCheckedForm):
            # Set on the class made for this request (modelform_factory makes one
            # per call): a subclass would build its fields afresh, losing what
            # other mixins set on them (the body editor's posts and images).
            for name, value in at_door.items():
                setattr(form, name, value)
        return form

    def _call(self, service, request, obj):
        service(**{self.service_argument: obj, "by": request.user})

    # ------------------------------------------------------------ the form's inlines
    # The form holds the whole submission, its inline formsets included, so its
    # check sees every row as submitted (ServiceCheckedForm). The admin makes
    # none of its own: it shows, logs and saves the form's.

    def get_formsets_with_inlines(self, request, obj=None):
        return iter(())

    def formsets_of(self, request, form) -> list:
        """(formset, inline, whether the user may change its rows) for each inline
        of `form`'s instance, made as the admin's change view makes its own."""
        obj = form.instance if form.instance.pk is not None else None
        made, prefixes = [], {}
        for formset_class, inline in super().get_formsets_with_inlines(request, obj):
            prefix = formset_class.get_default_prefix()
            prefixes[prefix] = prefixes.get(prefix, 0) + 1
            if prefixes[prefix] != 1 or not prefix:
                prefix = f"{prefix}-{prefixes[prefix]}"
            kwargs = self.get_formset_kwargs(request, form.instance, inline, prefix)
            # A view-only inline is shown as stored, neither validated nor saved
            # (its rows are not in the submission).
            editable = inline.has_change_permission(request, obj) or (
                obj is None and inline.has_add_permission(request, obj)
            )
            if not (form.is_bound and editable):
                kwargs.pop("data", None)
                kwargs.pop("files", None)
            made.append((formset_class(**kwargs), inline, editable))
        return made

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        form = context["adminform"].form
        if isinstance(form, ServiceCheckedForm):
            made = form.inline_formsets
            inline_formsets = self.get_inline_formsets(
                request,
                [formset for formset, _inline, _editable in made],
                [inline for _formset, inline, _editable in made],
                obj,
            )
            media = context["media"]
            for inline_formset in inline_formsets:
                media += inline_formset.media
            context.update(
                inline_admin_formsets=inline_formsets,
                media=media,
                errors=helpers.AdminErrorList(form, form.formsets),
            )
        return super().render_change_form(request, context, *args, obj=obj, **kwargs)

    def construct_change_message(self, request, form, formsets, add=False):
        formsets = getattr(form, "formsets", formsets)
        return super().construct_change_message(request, form, formsets, add)

    def save_model(self, request, obj, form, change):
        if not self.inlines:
            self._call(self.save_service, request, obj)

    def save_related(self, request, form, formsets, change):
        if not self.inlines:
            return super().save_related(request, form, formsets, change)
        changed, deleted = form.submitted_rows
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
    view's transaction has rolled back, so nothing was half-saved; a refusal that
    was recorded (by a door: identity.refusals) is recorded again if that rollback
    undid its record (`keep_record`)."""
    try:
        return view(request, *args, **kwargs)
    except ValidationError as refusal:
        keep_record = getattr(refusal, "keep_record", None)
        if keep_record is not None:
            keep_record()  # its record went with the view's rollback
        model_admin.message_user(request, " ".join(refusal.messages), messages.ERROR)
    except PermissionDenied as refusal:
        if not str(refusal):
            raise
        model_admin.message_user(request, str(refusal), messages.ERROR)
    return HttpResponseRedirect(request.get_full_path())
