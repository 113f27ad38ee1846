"""The accounts admin as the editorial side needs it: a byline prints its staff
member's name, so renaming someone passes the identity gate, through `staff_save`.

The accounts admin belongs to `audit` (a floor below, which knows nothing of bylines
or the gate); this module extends the class registered there, from this side.
"""

from django.contrib import admin
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext_lazy as _

from accounts.enrolment import enrolment_invite
from audit.admin import UserAdmin as AccountsAdmin
from core.service_admin import refusals_as_messages
from core.service_forms import DoorCheckedForm
from identity.gate import leak_message
from identity.refusals import Door

from .. import permissions as perms
from ..models import Byline
from ..services import StaffNameLeakError, staff_name_check, staff_save

User = get_user_model()

# The fields whose values make the name a byline prints.
NAME_FIELDS = ("first_name", "last_name", "username")


class StaffNameForm(DoorCheckedForm):
    """Mixed into an account's change form: a new name that bylines print is
    checked at the rename door before anything is saved."""

    door = Door.USER_RENAME

    def door_check(self) -> None:
        staff_name_check(user=self.instance)

    def show_refusal(self, error, related=()) -> None:
        if not isinstance(error, StaffNameLeakError):
            return super().show_refusal(error, related)
        self.add_error(None, error.messages)
        for name in NAME_FIELDS:
            if name in self.fields and name in self.changed_data:
                self.add_error(name, leak_message())


class UserAdmin(AccountsAdmin):
    """The accounts admin, with renames checked against bylines by the gate."""

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is None:
            return form  # a new account signs no story
        return type(form.__name__, (StaffNameForm, form), {"door_user": request.user})

    actions = ["invite_to_enrol"]

    def save_user(self, request, obj, form, change):
        staff_save(user=obj, by=request.user)

    @admin.action(
        description=_("Invite to set up two-factor sign-in"),
        permissions=["change"],
    )
    def invite_to_enrol(self, request, queryset):
        """An enrolment code per account, shown once to hand over in person: the
        way in for someone without an e-mail address (accounts/enrolment.py)."""
        invitations = [
            (user, enrolment_invite(user=user, by=request.user)) for user in queryset
        ]
        # The admin's pages are never cached (never_cache): the codes stay here.
        return TemplateResponse(
            request,
            "admin/accounts/invitations.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Invitation codes"),
                "invitations": invitations,
                "opts": self.model._meta,
            },
        )

    def changeform_view(self, request, *args, **kwargs):
        return refusals_as_messages(
            self, request, super().changeform_view, *args, **kwargs
        )

    def get_urls(self):
        view = StaffAutocompleteView.as_view(admin_site=self.admin_site)
        return [
            path(
                "staff-autocomplete/",
                self.admin_site.admin_view(view),
                name="auth_user_staff_autocomplete",
            ),
            *super().get_urls(),
        ]


def staff_label(user) -> str:
    """A colleague as the byline's picker shows them: the name bylines print, and
    the login that tells two namesakes apart."""
    name = user.get_full_name()
    return f"{name} ({user.get_username()})" if name else user.get_username()


class StaffAutocompleteView(AutocompleteJsonView):
    """The byline's staff picker: active colleagues found by name or login, for
    whoever may sign stories. Django's own autocomplete asks for the permission to
    view accounts (e-mail addresses, roles), which writing a story does not need."""

    def process_request(self, request):
        found = super().process_request(request)
        if found[2] is not Byline._meta.get_field("user"):
            raise PermissionDenied  # the picker of bylines, not a list of accounts
        return found

    def has_perm(self, request, obj=None):
        return request.user.has_perm(perms.ADD_BYLINE) or request.user.has_perm(
            perms.CHANGE_BYLINE
        )

    def get_queryset(self):
        staff = User.objects.filter(is_staff=True, is_active=True)
        for word in self.term.split():
            staff = staff.filter(
                Q(username__icontains=word)
                | Q(first_name__icontains=word)
                | Q(last_name__icontains=word)
            )
        return staff.order_by("first_name", "last_name", "username")

    def serialize_result(self, obj, to_field_name):
        return {"id": str(getattr(obj, to_field_name)), "text": staff_label(obj)}


class StaffChoiceWidget(AutocompleteSelect):
    """The byline's picker of a staff member, answered by StaffAutocompleteView."""

    url_name = "%s:auth_user_staff_autocomplete"


admin.site.unregister(User)
admin.site.register(User, UserAdmin)
