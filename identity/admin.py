"""The admin of people named in stories, where legal names stay with those entitled.

Without `identity.view_legal_name` a user never sees a protected person's legal
name: not on the change page, not in lists or autocompletes, and searching for it
finds nothing. Each time the name is shown to an entitled user, the audit trail
records who saw whose (identity.legal).
"""

from django import forms
from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.admin_mixins import ArabicSearchMixin, NewsroomTranslationAdmin
from core.service_admin import ServiceAdminMixin
from core.service_forms import DoorCheckedForm

from .legal import legal_spellings_for, people_spelled
from .models import Person
from .permissions import VIEW_LEGAL_NAME
from .refusals import Door
from .services import person_check, person_delete, person_save
from .text.lineage import with_short_forms
from .text.romanization import ARABIC_RE, romanizations


def may_see_legal_names(user) -> bool:
    return user.has_perm(VIEW_LEGAL_NAME)


class PersonAdminForm(DoorCheckedForm):
    """Checks the person with the service's own rules, at its door, before anything
    is saved.

    For an identity officer editing a protected person, `name` and `other_spellings`
    show the legal spellings the admin asked for (identity.legal, audited); for
    anyone else they are not on the form, and the stored ones stay as they are."""

    other_spellings = forms.CharField(
        label=_("other spellings of the legal name"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "For a protected person: the legal name as written in other scripts or "
            "forms, one per line (e.g. Mazen al-Khatib); none is ever published."
        ),
    )

    withdraw_stories = forms.BooleanField(
        label=_("Withdraw public stories that carry the legal name"),
        required=False,
        help_text=_(
            "When protecting someone already named in public stories: take those "
            "stories off the site in the same step (each is unpublished and "
            "recorded). Otherwise fix them first."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        shown = self._meta.fields
        if shown is not None and "other_spellings" not in shown:
            # Declared fields are on every form: this one only where the admin
            # shows it, so a user who may not see it cannot post it either.
            del self.fields["other_spellings"]
        if "other_spellings" in self.fields and self.instance.holds_legal_spellings:
            self.fields["other_spellings"].initial = self.instance.other_spellings

    def clean(self):
        cleaned_data = super().clean()
        # On the instance before Django validates it: the constraint that a
        # protected person's row holds no legal name reads the spellings.
        if "other_spellings" in self.fields and "other_spellings" in cleaned_data:
            self.instance.other_spellings = cleaned_data["other_spellings"]
        return cleaned_data

    def door_check(self) -> None:
        person_check(
            person=self.instance,
            withdraw=self.cleaned_data.get("withdraw_stories", False),
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
                    "covered_romanizations",
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
            return {
                "name",
                "other_spellings",
                "covered_romanizations",
                "withdraw_stories",
            }
        return {"other_spellings", "covered_romanizations"}

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
        if not may_see_legal_names(request.user):
            # Unticking protection would reveal a name the user may not see.
            return ("identity_protected",) if protected else ()
        return ("covered_romanizations",)

    def get_search_results(self, request, queryset, search_term):
        """Public names for everyone; identity officers also find people by a
        legal spelling."""
        found, duplicates = super().get_search_results(request, queryset, search_term)
        if search_term.strip() and may_see_legal_names(request.user):
            by_legal_name = people_spelled(search_term, by=request.user)
            found = found | queryset.filter(pk__in=by_legal_name.values("pk"))
        return found, duplicates

    def get_form(self, request, obj=None, change=False, **kwargs):
        protected = obj is not None and obj.identity_protected
        if protected and may_see_legal_names(request.user):
            # The form shows the legal spellings: asked for, and recorded.
            legal_spellings_for(obj, by=request.user)
        return super().get_form(request, obj, change=change, **kwargs)

    def save_model(self, request, obj, form, change):
        person_save(
            person=obj,
            by=request.user,
            withdraw=form.cleaned_data.get("withdraw_stories", False),
        )

    @admin.display(description=_("romanizations the gate covers"))
    def covered_romanizations(self, person):
        """Latin spellings the gate reads as the legal name (for an officer, from
        the spellings the form already asked for): any romanization with the same
        consonants is refused, these are examples."""
        spellings = person.legal_spellings if person.holds_legal_spellings else []
        spellings = with_short_forms(spellings)
        shown = [
            written
            for spelling in spellings
            if ARABIC_RE.search(spelling)
            for written in romanizations(spelling)
        ]
        if not shown:
            return "—"
        return format_html(
            '<ul class="romanizations" dir="ltr">{}</ul><p class="help">{}</p>',
            format_html_join("", "<li>{}</li>", ((written,) for written in shown)),
            gettext(
                "The gate refuses and withholds these and every other Latin "
                "spelling with the same consonants. Add under other spellings "
                "any way of writing the name it does not cover."
            ),
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
