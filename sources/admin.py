"""The editors' list of news outlets, and the attributions on the article form."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from articles.admin import story_admin
from articles.forms import cleaned_upload
from articles.services import public_rows_check
from core.admin_mixins import ArabicSearchMixin, DirAutoMixin, NewsroomTranslationAdmin
from core.service_admin import ServiceAdminMixin

from .models import Attribution, SocialAccount, Source
from .services import source_delete, source_save


class SourceAdminForm(forms.ModelForm):
    """The source form; the admin supplies the model and fields from its fieldsets."""

    def clean_logo(self):
        return cleaned_upload(self.cleaned_data.get("logo"))


class SocialAccountInline(DirAutoMixin, admin.TabularInline):
    model = SocialAccount
    fields = ("platform", "handle", "url")
    extra = 1


@admin.register(Source)
class SourceAdmin(ServiceAdminMixin, ArabicSearchMixin, NewsroomTranslationAdmin):
    form = SourceAdminForm
    list_display = ("name", "kind", "country", "language")
    list_filter = ("kind", "country")
    search_help_text = _(
        "Searches names, aliases and domains; hamzas and marks ignored."
    )
    inlines = (SocialAccountInline,)
    fieldsets = (
        (None, {"fields": ("name", "kind", "aliases", "country", "language")}),
        (_("On the web"), {"fields": ("homepage", "domains", "logo")}),
        (_("Republishing"), {"fields": ("terms", "credit_as", "link_required")}),
        (_("Web address"), {"fields": ("slug",), "classes": ("collapse",)}),
    )
    save_service = staticmethod(source_save)
    delete_service = staticmethod(source_delete)
    check_service = staticmethod(public_rows_check)
    service_argument = "source"


class AttributionInlineFormSet(forms.BaseInlineFormSet):
    """At most one attribution may own the canonical link.

    The database enforces it too, but a conditional unique constraint is not checked
    across the rows of one formset, so two ticked boxes would reach it as an error.
    """

    def clean(self):
        super().clean()
        canonical = [
            form
            for form in self.forms
            if getattr(form, "cleaned_data", None)
            and not form.cleaned_data.get("DELETE")
            and form.cleaned_data.get("is_canonical")
        ]
        if len(canonical) > 1:
            raise forms.ValidationError(
                _("Only one source can hold the canonical link; untick the others.")
            )


class AttributionInline(DirAutoMixin, admin.TabularInline):
    model = Attribution
    fields = (
        "source",
        "role",
        "original_url",
        "original_published_on",
        "is_canonical",
        "position",
    )
    autocomplete_fields = ("source",)
    formset = AttributionInlineFormSet
    extra = 1


story_admin.add_inline(AttributionInline)
# Every source, not only those credited: "related only" joins every story to its
# attributions to find them, on each changelist view.
story_admin.add_list_filter("attributions__source")
