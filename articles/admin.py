"""The editors' workplace for stories, desks, tags and the people named in stories.

Each admin gathers what an editor submits and hands it to a service in
`articles.services`; none of them writes a row or re-checks a rule itself. Apps
that add to the article admin (sources, ingest) subclass the registered class and
register it again (see `extend_article_admin`).
"""

from functools import partial

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
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

from .forms import ArticleAdminForm, CorrectionForm, SocialPostAdminForm
from .history_admin import restore_view, revisions_view
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
from .presence import presence_touch
from .service_admin import ServiceAdminMixin, saved_rows
from .services import (
    StoryEdit,
    article_approve,
    article_delete,
    article_publish,
    article_save,
    article_send_back,
    article_submit,
    article_unpublish,
    correction_add,
    preview_link_create,
    preview_link_revoke,
    public_rows_check,
    section_delete,
    section_save,
    tag_delete,
    tag_save,
)
from .views import ArticlePreviewView
from .workflow import TRANSITIONS, may_edit, transitions_for
from .workflow_admin import StateFilter, kill_view, state_badge


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


# The workflow buttons of the change form (publishing, which takes a time, aside).
MOVES = {
    "submit": article_submit,
    "approve": article_approve,
    "send_back": article_send_back,
    "withdraw": article_unpublish,
}
MOVE_DONE = {
    "submit": _("Submitted for review."),
    "approve": _("Approved."),
    "send_back": _("Sent back to draft."),
    "publish": _("The story is published (or scheduled)."),
    "withdraw": _("The story is off the site."),
}


class ArticleAdmin(ServiceAdminMixin, ArabicSearchMixin, NewsroomTranslationAdmin):
    form = ArticleAdminForm
    delete_service = staticmethod(article_delete)
    service_argument = "article"
    list_display = ("headline", "state", "section", "published_at", "is_breaking")
    list_filter = (StateFilter, "section", "is_breaking")
    list_select_related = ("section",)
    date_hierarchy = "published_at"
    search_help_text = _(
        "Searches headline, summary and body; hamzas and marks ignored."
    )
    autocomplete_fields = ("section",)
    actions = ("publish", "unpublish")
    save_on_top = True
    readonly_fields = ("state", "published_at")
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "base_version",
                    "language",
                    "kicker",
                    "headline",
                    "summary",
                    "body",
                )
            },
        ),
        (
            _("Publishing"),
            {
                "fields": (
                    "state",
                    "published_at",
                    "publish_at",
                    "embargo_until",
                    "is_breaking",
                    "section",
                    "tags",
                ),
                "description": _(
                    "The workflow is in the buttons below: submit, approve, publish "
                    "(now or at the time given), withdraw. An embargo keeps even a "
                    "published story off the site until it lifts."
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

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or may_edit(obj, request.user))

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not self.has_publish_permission(request):
            fields.append("embargo_until")
        return fields

    @admin.display(description=_("state"))
    def state(self, article):
        return state_badge(article)

    def has_add_correction_permission(self, request) -> bool:
        return request.user.has_perm("articles.add_correction")

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        moves = [] if obj is None else transitions_for(obj, request.user)
        if obj is None and request.user.has_perm("articles.publish_article"):
            moves = [TRANSITIONS["publish"]]
        context.update(
            workflow_moves=[m for m in moves if m.name != "kill"],
            kill_url=reverse("admin:articles_article_kill", args=[obj.pk])
            if any(m.name == "kill" for m in moves)
            else "",
            is_published=obj is not None and obj.status == Status.PUBLISHED,
            state_badge=state_badge(obj) if obj is not None else "",
            # Listed read-only; an entry is only ever added, on its own page.
            corrections=(
                list(obj.corrections.select_related("created_by")) if obj else []
            ),
            can_add_correction=self.has_add_correction_permission(request),
        )
        if obj is not None:
            context.update(self._preview_context(request, obj))
            context["also_editing"] = presence_touch(obj.pk, request.user)
            if request.user.has_perm("audit.view_auditevent"):
                kind = ContentType.objects.get_for_model(Article)
                context["audit_url"] = (
                    reverse("admin:audit_auditevent_changelist")
                    + f"?content_type__id__exact={kind.pk}&q={obj.pk}"
                )
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

    # ------------------------------------------------------------ pages of a story

    def get_urls(self):
        def view(function):
            return self.admin_site.admin_view(partial(function, self))

        return [
            path(
                "<path:object_id>/kill/", view(kill_view), name="articles_article_kill"
            ),
            path(
                "<path:object_id>/revisions/",
                view(revisions_view),
                name="articles_article_revisions",
            ),
            path(
                "<path:object_id>/revisions/<int:revision_id>/restore/",
                view(restore_view),
                name="articles_article_restore",
            ),
            path(
                "<path:object_id>/correction/",
                self.admin_site.admin_view(self.add_correction_view),
                name="articles_article_add_correction",
            ),
            path(
                "<path:object_id>/preview/",
                self.admin_site.admin_view(
                    ArticlePreviewView.as_view(model_admin=self)
                ),
                name="articles_article_preview",
            ),
            path(
                "<path:object_id>/preview-links/",
                self.admin_site.admin_view(require_POST(self.preview_share_view)),
                name="articles_article_preview_share",
            ),
            path(
                "<path:object_id>/preview-links/<int:link_id>/revoke/",
                self.admin_site.admin_view(require_POST(self.preview_revoke_view)),
                name="articles_article_preview_revoke",
            ),
            *super().get_urls(),
        ]

    def add_correction_view(self, request, object_id):
        """The "Add a correction" page of a story: a form handed to correction_add."""
        if not self.has_add_correction_permission(request):
            raise PermissionDenied
        article = self.get_object(request, unquote(object_id))
        if article is None:
            raise Http404
        if not self.has_view_or_change_permission(request, article):
            raise PermissionDenied
        change_url = reverse(
            f"{self.admin_site.name}:articles_article_change", args=[article.pk]
        )
        form = CorrectionForm(request.POST if request.method == "POST" else None)
        if form.is_valid():
            try:
                correction_add(article=article, by=request.user, **form.cleaned_data)
            except ValidationError as refusal:
                form.add_error(None, refusal.messages)
            except PermissionDenied as refusal:
                form.add_error(None, str(refusal))
            else:
                self.message_user(
                    request,
                    gettext("The correction is printed at the end of the story."),
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(change_url)
        request.current_app = self.admin_site.name
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Add a correction"),
            "subtitle": str(article),
            "opts": self.opts,
            "original": article,
            "form": form,
            "change_url": change_url,
        }
        return TemplateResponse(
            request, "admin/articles/article/add_correction.html", context
        )

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
            base_version=form.cleaned_data.get("base_version"),
        )
        article = article_save(edit=edit, by=request.user)
        merged = list(dict.fromkeys([*form.merged, *edit.merged]))
        if merged:
            self.message_user(
                request,
                gettext(
                    "Someone else saved this story while you edited it; their "
                    "changes to %(fields)s were kept alongside yours."
                )
                % {"fields": gettext(", ").join(merged)},
                messages.WARNING,
            )
        move = request.POST.get("_move", "")
        if move == "publish":
            at = form.cleaned_data.get("publish_at")
            article_publish(article=article, by=request.user, at=at)
        elif move in MOVES:
            MOVES[move](article=article, by=request.user)
        if move in MOVE_DONE:
            self.message_user(request, MOVE_DONE[move])

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
