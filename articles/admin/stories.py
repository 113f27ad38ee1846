"""The article admin: the story form with its inlines, the workflow buttons and the
list actions, with what other apps registered for it (`extensions.story_admin`)."""

from functools import partial

from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.contrib.admin.templatetags.admin_urls import add_preserved_filters
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.urls import path, reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.admin_mixins import ArabicSearchMixin, DirAutoMixin, NewsroomTranslationAdmin
from core.pagination import EstimatedCountPaginator
from core.service_admin import ServiceAdminMixin
from identity.refusals import Door

from .. import permissions as perms
from ..forms import ArticleAdminForm, SocialPostAdminForm
from ..models import (
    Article,
    ArticlePerson,
    Byline,
    SocialPost,
    Status,
)
from ..presence import presence_touch
from ..search_window import SEARCH_WINDOW, desk_window
from ..services import (
    article_approve,
    article_delete,
    article_publish,
    article_save,
    article_send_back,
    article_submit,
    article_unpublish,
)
from ..workflow import may_edit, transitions_for
from .accounts import StaffChoiceWidget, staff_label
from .corrections import CorrectionAdminMixin
from .drafts import draft_key, draft_saved
from .editor import BodyEditorMixin
from .extensions import story_admin
from .history import restore_view, revisions_view
from .images import ImageChoiceWidget
from .moves import StateFilter, kill_view, state_badge
from .previews import PreviewAdminMixin


class BylineInline(DirAutoMixin, admin.TabularInline):
    model = Byline
    fields = ("user", "name", "position")
    autocomplete_fields = ("user",)
    extra = 1

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":
            # Colleagues by name, for whoever signs stories (not the accounts list).
            kwargs["widget"] = StaffChoiceWidget(db_field, self.admin_site)
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "user":
            formfield.label_from_instance = staff_label
        return formfield


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
    "publish": _("Published."),
    "withdraw": _("Withdrawn from the site: the story is a draft again."),
}


def _move_of(request) -> str:
    """The workflow button the form was sent with, if any ("" for a plain save)."""
    move = request.POST.get("_move", "")
    return move if move in MOVE_DONE and IS_POPUP_VAR not in request.POST else ""


def move_done(move: str, article: Article) -> str:
    """What the desk says after `move`: the move's name, and for a publish, when
    readers will see the story (now, at the scheduled time, or when an embargo
    lifts)."""
    if move != "publish":
        return str(MOVE_DONE[move])
    article.refresh_from_db(fields=["status", "published_at", "embargo_until"])
    if article.is_scheduled:
        return gettext("Scheduled: the story goes live on %(time)s.") % {
            "time": date_format(localtime(article.published_at), "DATETIME_FORMAT")
        }
    if article.is_embargoed:
        return gettext(
            "Published; the embargo keeps it off the site until %(time)s."
        ) % {"time": date_format(localtime(article.embargo_until), "DATETIME_FORMAT")}
    return str(MOVE_DONE[move])


class ArticleAdmin(
    PreviewAdminMixin,
    CorrectionAdminMixin,
    ServiceAdminMixin,
    BodyEditorMixin,
    ArabicSearchMixin,
    NewsroomTranslationAdmin,
):
    form = ArticleAdminForm
    delete_service = staticmethod(article_delete)
    service_argument = "article"
    door = Door.STORY_SAVE
    list_display = ("headline", "state", "section", "published_at", "is_breaking")
    # Dates by a plain filter (today, past 7 days, this month, this year): the date
    # hierarchy listed the archive's distinct years, a scan of every story.
    list_filter = (
        StateFilter,
        "section",
        "is_breaking",
        ("published_at", admin.DateFieldListFilter),
    )
    list_select_related = ("section",)
    # The desk's archive runs to hundreds of thousands of stories: never count it
    # whole, and estimate (from PostgreSQL's planner) rather than count a long list.
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    # The folded text is already case-folded, so `contains` matches as `icontains`
    # would, and PostgreSQL answers it from the trigram index (icontains wraps the
    # column in UPPER(), which no index serves).
    search_fields = ("search_text__contains",)
    search_help_text = _(
        "Searches headline, summary and body; hamzas and marks ignored."
    )
    # A search shows the newest matches only (articles.search_window), so a word in
    # nearly every story is neither counted nor sorted whole, whatever the column.
    search_window = SEARCH_WINDOW
    autocomplete_fields = ("section", "hero_image")
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
                "fields": ("hero_image", "hero_caption"),
                "description": _(
                    "Credit, alt text and the graphic-content warning belong to the "
                    "image in the library; the caption here replaces the image's "
                    "own for this story only."
                ),
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

    # ------------------------------------------------------------ what apps add

    def get_inlines(self, request, obj):
        return story_admin.inlines_for(super().get_inlines(request, obj))

    def get_list_filter(self, request):
        return (*super().get_list_filter(request), *story_admin.list_filters)

    def get_search_results(self, request, queryset, search_term):
        found, duplicates = super().get_search_results(request, queryset, search_term)
        if not search_term.strip():
            return found, duplicates
        window = desk_window(found, self.search_window)
        request.search_window_full = len(window) >= self.search_window
        # The list as filtered, narrowed to the window's stories: the search is not
        # run again on the rows it found (for the count, then for the page).
        return queryset.filter(pk__in=window), duplicates

    def changelist_view(self, request, extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "list_tools": story_admin.list_tools_for(request),
        }
        response = super().changelist_view(request, extra_context)
        if getattr(request, "search_window_full", False):
            self.message_user(
                request,
                gettext(
                    "The newest %(count)s matching stories are shown: choose dates "
                    "(or a state, or a section) to reach older ones."
                )
                % {"count": self.search_window},
                messages.INFO,
            )
        return response

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "hero_image":
            kwargs["widget"] = ImageChoiceWidget(db_field, self.admin_site)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    # ------------------------------------------------------------ permissions

    def has_publish_permission(self, request) -> bool:
        return request.user.has_perm(perms.PUBLISH_ARTICLE)

    def has_unpublish_permission(self, request) -> bool:
        return request.user.has_perm(perms.UNPUBLISH_ARTICLE)

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

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        # A new story is a draft of its writer's: the moves a draft allows them
        # (submit; publish for editors), asked of the workflow like any other.
        story = obj if obj is not None else Article(created_by=request.user)
        moves = transitions_for(story, request.user)
        context.update(
            workflow_moves=[m for m in moves if m.name != "kill"],
            # Killing is for stories that exist (a new one is simply not saved).
            kill_url=reverse("admin:articles_article_kill", args=[obj.pk])
            if obj is not None and any(m.name == "kill" for m in moves)
            else "",
            is_published=obj is not None and obj.status == Status.PUBLISHED,
            state_badge=state_badge(obj) if obj is not None else "",
        )
        if self._may_write(request, obj):
            context["autosave_key"] = draft_key(request.user, obj)
        context.update(story_admin.context_for(self, request, obj))
        if obj is not None:
            context["story_panels"] = story_admin.panels_for(self, request, obj)
            if request.method == "GET":
                for notice in story_admin.notices_for(request, obj):
                    self.message_user(request, notice, messages.WARNING)
            context["also_editing"] = presence_touch(obj.pk, request.user)
            if request.user.has_perm(perms.VIEW_AUDITEVENT):
                kind = ContentType.objects.get_for_model(Article)
                context["audit_url"] = (
                    reverse("admin:audit_auditevent_changelist")
                    + f"?content_type__id__exact={kind.pk}&q={obj.pk}"
                )
        return super().render_change_form(request, context, *args, obj=obj, **kwargs)

    def _may_write(self, request, obj) -> bool:
        if obj is None:
            return self.has_add_permission(request)
        return self.has_change_permission(request, obj)

    # ------------------------------------------------------------ pages of a story

    def get_urls(self):
        def view(function):
            return self.admin_site.admin_view(partial(function, self))

        # Ids are numbers: anything else falls through to the admin's own "no such
        # object" answer instead of reaching a query as text.
        return [
            *(url for make in story_admin.url_makers for url in make(self)),
            path(
                "<int:object_id>/kill/", view(kill_view), name="articles_article_kill"
            ),
            path(
                "<int:object_id>/revisions/",
                view(revisions_view),
                name="articles_article_revisions",
            ),
            path(
                "<int:object_id>/revisions/<int:revision_id>/restore/",
                view(restore_view),
                name="articles_article_restore",
            ),
            *super().get_urls(),
        ]

    # ------------------------------------------------------------ the one write path

    def save_model(self, request, obj, form, change):
        """Nothing yet: the article is written with its inlines in save_related."""

    def save_related(self, request, form, formsets, change):
        # The edit the form checked, its rows as the form's formsets hold them.
        edit = form.story_edit
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

    # ------------------------------------------------------------ after a move

    # Both answer a successful save only: the browser may forget the story's
    # autosaved draft (a new story's under "new").
    def response_add(self, request, obj, post_url_continue=None):
        if _move_of(request):
            response = self._after_move(request, obj)
        else:
            response = super().response_add(request, obj, post_url_continue)
        return draft_saved(response, request, draft_key(request.user, None))

    def response_change(self, request, obj):
        if _move_of(request):
            response = self._after_move(request, obj)
        else:
            response = super().response_change(request, obj)
        return draft_saved(response, request, draft_key(request.user, obj))

    def _after_move(self, request, article):
        """Say which move was made, not that the story was "changed", and stay on
        the story: the editor who moved it usually has more to do there."""
        self.message_user(
            request, move_done(_move_of(request), article), messages.SUCCESS
        )
        url = reverse(
            f"{self.admin_site.name}:articles_article_change", args=[article.pk]
        )
        filters = self.get_preserved_filters(request)
        return HttpResponseRedirect(
            add_preserved_filters(
                {"preserved_filters": filters, "opts": self.opts}, url
            )
        )

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
