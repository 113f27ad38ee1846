"""The editors' workplace for stories, desks and the people named in them."""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from taggit.admin import TagAdmin as TaggitTagAdmin
from taggit.models import Tag

from ingest.forms import SocialPostPasteForm
from newsroom.admin_mixins import (
    ArabicSearchMixin,
    DirAutoMixin,
    NewsroomTranslationAdmin,
)
from sources.models import Attribution

from .forms import (
    ArticleAdminForm,
    AttributionInlineFormSet,
    privacy_checked_formset,
)
from .models import Article, ArticlePerson, Byline, Person, Section, SocialPost
from .services import article_publish, article_unpublish


class BylineInline(DirAutoMixin, admin.TabularInline):
    model = Byline
    fields = ("user", "name", "position")
    autocomplete_fields = ("user",)
    formset = privacy_checked_formset("name")
    extra = 1


class ArticlePersonInline(DirAutoMixin, admin.TabularInline):
    model = ArticlePerson
    fields = ("person", "role", "name_used", "position")
    autocomplete_fields = ("person",)
    formset = privacy_checked_formset("name_used")
    extra = 1


class SocialPostInline(DirAutoMixin, admin.StackedInline):
    model = SocialPost
    # Pasting a post's URL or embed code fills the fields.
    form = SocialPostPasteForm
    formset = privacy_checked_formset("text", "author_name")
    extra = 0


class AttributionInline(DirAutoMixin, admin.TabularInline):
    model = Attribution
    fields = ("source", "role", "original_url", "is_canonical", "position")
    autocomplete_fields = ("source",)
    formset = AttributionInlineFormSet
    extra = 1


@admin.register(Article)
class ArticleAdmin(ArabicSearchMixin, NewsroomTranslationAdmin):
    form = ArticleAdminForm
    list_display = ("headline", "status", "section", "published_at", "is_breaking")
    list_filter = (
        "status",
        "section",
        ("attributions__source", admin.RelatedOnlyFieldListFilter),
        "is_breaking",
    )
    list_select_related = ("section",)
    date_hierarchy = "published_at"
    search_help_text = _(
        "Searches headline, summary and body; hamzas and marks ignored."
    )
    autocomplete_fields = ("section",)
    actions = ("publish", "unpublish")
    save_on_top = True
    fieldsets = (
        (None, {"fields": ("language", "kicker", "headline", "summary", "body")}),
        (
            _("Publishing"),
            {"fields": ("status", "published_at", "is_breaking", "section", "tags")},
        ),
        (
            _("Hero image"),
            {
                "fields": (
                    "hero_image",
                    "hero_caption",
                    "hero_credit",
                    "hero_alt",
                    "hero_is_graphic",
                )
            },
        ),
        (
            _("Web address"),
            {
                "fields": ("slug",),
                "classes": ("collapse",),
                "description": _("Made from the headline when left empty."),
            },
        ),
    )
    inlines = (BylineInline, ArticlePersonInline, SocialPostInline, AttributionInline)

    @admin.action(description=_("Publish selected articles"), permissions=["change"])
    def publish(self, request, queryset):
        self._run_on_each(request, queryset, article_publish, gettext("Published: %s"))

    @admin.action(description=_("Unpublish selected articles"), permissions=["change"])
    def unpublish(self, request, queryset):
        self._run_on_each(
            request, queryset, article_unpublish, gettext("Unpublished: %s")
        )

    def _run_on_each(self, request, queryset, service, success_message) -> None:
        done = []
        for article in queryset.select_related(None):
            try:
                service(article=article, by=request.user)
            except ValidationError as error:
                self.message_user(
                    request,
                    gettext("“%(article)s” was not changed: %(reason)s")
                    % {"article": article, "reason": " ".join(error.messages)},
                    messages.ERROR,
                )
            else:
                done.append(str(article))
        if done:
            names = gettext(", ").join(done)
            self.message_user(request, success_message % names, messages.SUCCESS)


@admin.register(Section)
class SectionAdmin(NewsroomTranslationAdmin):
    list_display = ("name", "slug", "position")
    list_editable = ("position",)
    search_fields = ("name_ar", "name_en", "slug")


@admin.register(Person)
class PersonAdmin(ArabicSearchMixin, NewsroomTranslationAdmin):
    list_display = ("shown_name", "identity_protected", "description")
    list_display_links = ("shown_name",)
    list_filter = ("identity_protected",)
    search_help_text = _("Searches names and aliases; hamzas and marks ignored.")
    fieldsets = (
        (
            _("Identity"),
            {
                "fields": ("identity_protected", "name", "public_name", "aliases"),
                "description": _(
                    "When the identity is protected, only the public name ever "
                    "appears on the site, in feeds and in the API."
                ),
            },
        ),
        (None, {"fields": ("description",)}),
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


admin.site.unregister(Tag)


@admin.register(Tag)
class TagAdmin(DirAutoMixin, TaggitTagAdmin):
    """taggit's tag admin, without listing every tagged item on the tag's page."""

    inlines = ()
    search_fields = ("name", "slug")
