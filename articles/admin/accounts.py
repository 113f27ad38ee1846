"""The accounts admin as the editorial side needs it: a byline prints its staff
member's name, so renaming someone passes the identity gate, through `staff_save`.

The accounts admin belongs to `audit` (a floor below, which knows nothing of bylines
or the gate); this module extends the class registered there, from this side.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model

from audit.admin import UserAdmin as AccountsAdmin

from ..identity import leak_message
from ..service_forms import DoorCheckedForm
from ..services import Door, StaffNameLeakError, staff_name_check, staff_save
from .base import refusals_as_messages

User = get_user_model()

# The fields whose values make the name a byline prints.
NAME_FIELDS = ("first_name", "last_name", "username")


class StaffNameForm(DoorCheckedForm):
    """Mixed into an account's change form: a new name that bylines print is
    checked at the rename door before anything is saved."""

    door = Door.USER_RENAME

    def _post_clean(self):
        super()._post_clean()
        if not self._errors:
            self.check_at_door(lambda: staff_name_check(user=self.instance))

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

    def save_user(self, request, obj, form, change):
        staff_save(user=obj, by=request.user)

    def changeform_view(self, request, *args, **kwargs):
        return refusals_as_messages(
            self, request, super().changeform_view, *args, **kwargs
        )


admin.site.unregister(User)
admin.site.register(User, UserAdmin)
