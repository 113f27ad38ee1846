"""The admin of people named in stories, where legal names stay with those entitled.

Without `articles.view_legal_name` a user never sees a protected person's legal
name: not on the change page, not in lists or autocompletes, and searching for it
finds nothing. Each time the name is shown to an entitled user, the audit trail
records who saw whose.
"""

from django import forms
from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from audit.services import audit_record
from core.admin_mixins import ArabicSearchMixin, NewsroomTranslationAdmin

from .. import permissions as perms
from ..audit_actions import Action
from ..models import Person
from ..service_forms import DoorCheckedForm
from ..services import Door, person_check, person_delete, person_save
from .base import ServiceAdminMixin


def may_see_legal_names(user) -> bool:
    return user.has_perm(perms.VIEW_LEGAL_NAME)


class PersonAdminForm(DoorCheckedForm):
    """Checks the person with the service's own rules, at its door, before anything
    is saved."""

    withdraw_stories = forms.BooleanField(
        label=_("Withdraw public stories that carry the legal name"),
        required=False,
        help_text=_(
            "When protecting someone already named in public stories: take those "
            "stories off the site in the same step (each is unpublished and "
            "recorded). Otherwise fix them first."
        ),
    )

    def _post_clean(self):
        super()._post_clean()
        if self._errors:
            return
        self.check_at_door(
            lambda: person_check(
                person=self.instance,
                withdraw=self.cleaned_data.get("withdraw_stories", False),
            )
        )


@admin.register(Person)
class PersonAdmin(ServiceAdminMixin, ArabicSearchMixin, NewsroomTranslationAdmin):
    form = PersonAdminForm
    list_display = ("shown_name", "identity_protected", "description")
    list_display_links = ("shown_name",)
    list_filter = ("identity_protected",)
    search_help_text = _("Searches names and aliases; hamzas and marks ignored.")
    delete_service = staticmethod(person_delete)
    service_argument = "person"
    door = Door.PERSON_SAVE

    fieldsets = (
        (
            _("Identity"),
            {
                "fields": (
                    "identity_protected",
                    "name",
                    "other_spellings",
                    "withdraw_stories",
                    "public_name",
                    "aliases",
                ),
                "description": _(
                    "When the identity is protected, only the public name ever "
                    "appears on the site, in feeds and in the API; the legal name "
                    "and its spellings are seen by identity officers only."
                ),
            },
        ),
        (None, {"fields": ("description",)}),
    )

    def hidden_fields(self, request, obj=None) -> set[str]:
        """Fields holding a legal name, for users not entitled to see it (and the
        withdrawal choice, which only protecting or a new spelling needs)."""
        if may_see_legal_names(request.user):
            return set()
        if obj is not None and obj.identity_protected:
            return {"name", "other_spellings", "withdraw_stories"}
        return {"other_spellings"}

    def get_fieldsets(self, request, obj=None):
        hidden = self.hidden_fields(request, obj)
        return [
            (
                title,
                {
                    **options,
                    "fields": [f for f in options["fields"] if f not in hidden],
                },
            )
            for title, options in super().get_fieldsets(request, obj)
        ]

    def get_readonly_fields(self, request, obj=None):
        protected = obj is not None and obj.identity_protected
        if protected and not may_see_legal_names(request.user):
            # Unticking protection would reveal a name the user may not see.
            return ("identity_protected",)
        return ()

    def get_search_fields(self, request):
        if may_see_legal_names(request.user):
            return ("search_text", "legal_search_text")
        return ("search_text",)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        response = super().change_view(request, object_id, form_url, extra_context)
        if request.method == "GET" and may_see_legal_names(request.user):
            person = self.get_object(request, object_id)
            if person is not None and person.identity_protected:
                audit_record(
                    by=request.user,
                    action=Action.LEGAL_NAME_VIEWED,
                    obj=person,
                )
        return response

    def save_model(self, request, obj, form, change):
        person_save(
            person=obj,
            by=request.user,
            withdraw=form.cleaned_data.get("withdraw_stories", False),
        )

    @admin.display(description=_("name readers see"), ordering="public_name")
    def shown_name(self, person):
        if person.identity_protected:
            return format_html(
                '<span class="identity-protected" title="{}">🔒 {}</span>',
                gettext("Identity protected"),
                person.display_name,
            )
        return person.display_name
