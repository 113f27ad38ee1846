"""The editors' workplace for stories, desks, tags and the people named in stories.

Each admin gathers what an editor submits and hands it to a service in
`articles.services`; none of them writes a row or re-checks a rule itself. Apps
that add to the article admin (sources, ingest) subclass the registered class and
register it again (see `extend_article_admin`).
"""

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from taggit.admin import TagAdmin as TaggitTagAdmin
from taggit.models import Tag

from newsroom.admin_mixins import (
    ArabicSearchMixin,
    DirAutoMixin,
    NewsroomTranslationAdmin,
)

from .forms import ArticleAdminForm, SocialPostAdminForm
from .models import (
    Article,
    ArticlePerson,
    Byline,
    PreviewLink,
    Section,
    SocialPost,
    Status,
)
from .people_admin import PersonAdmin  # noqa: F401  (registers the people admin)
from .service_admin import ServiceAdminMixin, saved_rows
from .services import (
    StoryEdit,
    article_delete,
    article_publish,
    article_save,
    article_unpublish,
    preview_link_create,
    preview_link_revoke,
    public_rows_check,
    section_delete,
    section_save,
    tag_delete,
    tag_save,
)
from .views import ArticlePreviewView


class BylineInline(DirAutoMixin, admin.TabularInline):
    model = Byline
    fields = ("user", "name", "position")
    autocomplete_fields = ("user",)
    extra = 1


class ArticlePersonInline(DirAutoMixin, admin.TabularInline):
    model = ArticlePerson
    fields = ("person", "role", "name_used", "position")
    autocomplete_fields = ("person",)
    extra = 1


class SocialPostInline(DirAutoMixin, admin.StackedInline):
    model = SocialPost
    form = SocialPostAdminForm
    extra = 0


class ArticleAdmin(ServiceAdminMixin, ArabicSearchMixin, NewsroomTranslationAdmin):
    form = ArticleAdminForm
    delete_service = staticmethod(article_delete)
    service_argument = "article"
    list_display = ("headline", "status", "section", "published_at", "is_breaking")
    list_filter = ("status", "section", "is_breaking")
    list_select_related = ("section",)
    date_hierarchy = "published_at"
    search_help_text = _(
        "Searches headline, summary and body; hamzas and marks ignored."
    )
    autocomplete_fields = ("section",)
    actions = ("publish", "unpublish")
    save_on_top = True
    readonly_fields = ("status", "published_at")
    fieldsets = (
        (None, {"fields": ("language", "kicker", "headline", "summary", "body")}),
        (
            _("Publishing"),
            {
                "fields": (
                    "status",
                    "published_at",
                    "publish_at",
                    "is_breaking",
                    "section",
                    "tags",
                ),
                "description": _(
                    "Publishing is a button below: “Save and publish” puts the story "
                    "on the site, now or at the time given."
                ),
            },
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
                "description": _(
                    "Made from the headline, and remade when the headline changes, "
                    "unless typed by hand."
                ),
            },
        ),
    )
    inlines = (BylineInline, ArticlePersonInline, SocialPostInline)

    # ------------------------------------------------------------ permissions

    def has_publish_permission(self, request) -> bool:
        return request.user.has_perm("articles.publish_article")

    def has_unpublish_permission(self, request) -> bool:
        return request.user.has_perm("articles.unpublish_article")

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        published = obj is not None and obj.status == Status.PUBLISHED
        context.update(
            can_publish=self.has_publish_permission(request),
            can_unpublish=published and self.has_unpublish_permission(request),
            is_published=published,
        )
        if obj is not None:
            context.update(self._preview_context(request, obj))
        return super().render_change_form(request, context, *args, obj=obj, **kwargs)

    def _preview_context(self, request, obj) -> dict:
        """The Preview button for those who may view the story; share links and
        their list for those who may change it."""
        can_change = self.has_change_permission(request, obj)
        links = obj.preview_links.active() if can_change else []
        return {
            "preview_url": self._url("preview", obj.pk),
            "can_preview": self.has_view_permission(request, obj),
            "can_preview_changes": can_change,
            "can_share_preview": can_change,
            "preview_share_url": self._url("preview_share", obj.pk),
            "preview_links": [
                {
                    "link": link,
                    "url": request.build_absolute_uri(link.get_absolute_url()),
                    "revoke_url": self._url("preview_revoke", obj.pk, link.pk),
                }
                for link in links
            ],
        }

    # ------------------------------------------------------------ previews

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path(
                "<path:object_id>/preview/",
                wrap(ArticlePreviewView.as_view(model_admin=self)),
                name="articles_article_preview",
            ),
            path(
                "<path:object_id>/preview-links/",
                wrap(require_POST(self.preview_share_view)),
                name="articles_article_preview_share",
            ),
            path(
                "<path:object_id>/preview-links/<int:link_id>/revoke/",
                wrap(require_POST(self.preview_revoke_view)),
                name="articles_article_preview_revoke",
            ),
            *super().get_urls(),
        ]

    def _url(self, name: str, *args) -> str:
        return reverse(
            f"admin:articles_article_{name}",
            args=args,
            current_app=self.admin_site.name,
        )

    def _story_or_404(self, request, object_id) -> Article:
        article = self.get_object(request, unquote(object_id))
        if article is None:
            raise Http404
        return article

    def preview_share_view(self, request, object_id):
        """Create a share link through the service; back to the form's link list."""
        article = self._story_or_404(request, object_id)
        try:
            preview_link_create(article=article, by=request.user)
        except ValidationError as refusal:
            self.message_user(request, " ".join(refusal.messages), messages.ERROR)
        else:
            self.message_user(
                request,
                gettext("A preview link was made; copy it from “Preview links”."),
                messages.SUCCESS,
            )
        return redirect(self._url("change", article.pk) + "#preview-links")

    def preview_revoke_view(self, request, object_id, link_id):
        """Revoke one of the story's share links through the service."""
        article = self._story_or_404(request, object_id)
        link = get_object_or_404(PreviewLink, pk=link_id, article=article)
        preview_link_revoke(link=link, by=request.user)
        self.message_user(
            request,
            gettext("%(link)s no longer opens the story.") % {"link": link},
            messages.SUCCESS,
        )
        return redirect(self._url("change", article.pk) + "#preview-links")

    # ------------------------------------------------------------ the one write path

    def save_model(self, request, obj, form, change):
        """Nothing yet: the article is written with its inlines in save_related."""

    def save_related(self, request, form, formsets, change):
        changed, deleted = saved_rows(formsets)
        edit = StoryEdit(
            article=form.instance,
            tags=form.cleaned_data.get("tags"),
            changed=changed,
            deleted=deleted,
        )
        article = article_save(edit=edit, by=request.user)
        if "_publish" in request.POST:
            article_publish(
                article=article, by=request.user, at=form.cleaned_data.get("publish_at")
            )
            self.message_user(request, gettext("The story is published."))
        elif "_unpublish" in request.POST and article.status == Status.PUBLISHED:
            article_unpublish(article=article, by=request.user)
            self.message_user(request, gettext("The story is off the site."))

    # ------------------------------------------------------------ list actions

    @admin.action(description=_("Publish selected articles"), permissions=["publish"])
    def publish(self, request, queryset):
        self._run_on_each(request, queryset, article_publish, gettext("Published: %s"))

    @admin.action(
        description=_("Unpublish selected articles"), permissions=["unpublish"]
    )
    def unpublish(self, request, queryset):
        self._run_on_each(
            request, queryset, article_unpublish, gettext("Unpublished: %s")
        )

    def _run_on_each(self, request, queryset, service, success_message) -> None:
        done = []
        for article in queryset.select_related(None):
            try:
                service(article=article, by=request.user)
            except (ValidationError, PermissionDenied) as error:
                reasons = getattr(error, "messages", None) or [str(error)]
                # By number: a refused headline may itself hold the name.
                self.message_user(
                    request,
                    gettext("Story #%(id)s was not changed: %(reason)s")
                    % {"id": article.pk, "reason": " ".join(reasons)},
                    messages.ERROR,
                )
            else:
                done.append(str(article))
        if done:
            names = gettext(", ").join(done)
            self.message_user(request, success_message % names, messages.SUCCESS)


admin.site.register(Article, ArticleAdmin)


def extend_article_admin(admin_class: type[ArticleAdmin]) -> None:
    """Register `admin_class`, a subclass of the registered article admin, in its
    place; apps call this from their admin module to add inlines or pages."""
    admin.site.unregister(Article)
    admin.site.register(Article, admin_class)


def registered_article_admin() -> type[ArticleAdmin]:
    """The article admin class as registered so far, for apps that extend it."""
    return type(admin.site.get_model_admin(Article))


@admin.register(Section)
class SectionAdmin(ServiceAdminMixin, NewsroomTranslationAdmin):
    list_display = ("name", "slug", "position")
    list_editable = ("position",)
    search_fields = ("name_ar", "name_en", "slug")
    save_service = staticmethod(section_save)
    delete_service = staticmethod(section_delete)
    check_service = staticmethod(public_rows_check)
    service_argument = "section"


admin.site.unregister(Tag)


@admin.register(Tag)
class TagAdmin(ServiceAdminMixin, DirAutoMixin, TaggitTagAdmin):
    """taggit's tag admin, without listing every tagged item on the tag's page."""

    inlines = ()
    search_fields = ("name", "slug")
    save_service = staticmethod(tag_save)
    delete_service = staticmethod(tag_delete)
    check_service = staticmethod(public_rows_check)
    service_argument = "tag"
