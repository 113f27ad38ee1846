"""The editors' list of news outlets and their social accounts."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from articles.forms import cleaned_upload
from newsroom.admin_mixins import (
    ArabicSearchMixin,
    DirAutoMixin,
    NewsroomTranslationAdmin,
)

from .models import SocialAccount, Source


class SourceAdminForm(forms.ModelForm):
    """The source form; the admin supplies the model and fields from its fieldsets."""

    def clean_logo(self):
        return cleaned_upload(self.cleaned_data.get("logo"))


class SocialAccountInline(DirAutoMixin, admin.TabularInline):
    model = SocialAccount
    fields = ("platform", "handle", "url")
    extra = 1


@admin.register(Source)
class SourceAdmin(ArabicSearchMixin, NewsroomTranslationAdmin):
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
        (_("Republishing"), {"fields": ("terms",)}),
        (_("Web address"), {"fields": ("slug",), "classes": ("collapse",)}),
    )
