"""The live desk on a story's admin page: adapters that gather the form's input,
call live.services and answer in JSON (live_desk.js posts without reloading the
page). A refusal answers with its message, and the editor's text stays in the form.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_prose_editor.widgets import AdminProseEditorWidget

from articles import permissions as perms
from articles.admin.editor import toolbar_labels
from articles.body import BODY_EXTENSIONS
from articles.models import Article, SocialPost
from images.models import Image

from . import services
from .models import PAGE_SIZE, LiveCoverage, LiveEntry

DESK_LANGUAGES = ("ar", "en")
_DIRECTIONS = {"ar": "rtl", "en": "ltr"}


def entry_editor(language: str) -> str:
    """The story body's rich-text editor for an entry's text in `language`: the
    same extensions, so the same allow-list, without placing posts and pictures
    in the text (an entry has its own post and picture)."""
    extensions = {
        name: value for name, value in BODY_EXTENSIONS.items() if name != "StoryEmbed"
    }
    extensions["TextDirection"] = {
        "direction": _DIRECTIONS[language],
        "language": language,
    }
    extensions["ToolbarLabels"] = {"labels": toolbar_labels()}
    widget = AdminProseEditorWidget(
        config={"extensions": extensions}, preset="configurable"
    )
    return widget.render(
        f"body_{language}", "", attrs={"id": f"live-body-{language}", "rows": 4}
    )


def may_use_desk(user) -> bool:
    """Whether the user sees the live desk on a story's page."""
    return user.has_perm(perms.VIEW_LIVEENTRY) or user.has_perm(perms.RUN_LIVECOVERAGE)


def desk_context(request, article: Article) -> dict:
    """What the desk shows: the coverage, its newest entries, the story's posts."""
    coverage = LiveCoverage.objects.filter(article=article).first()
    entries = list(
        LiveEntry.objects.filter(article=article)
        .select_related("author", "post", "image")
        .order_by("-is_pinned", "-posted_at", "-pk")[:PAGE_SIZE]
    )
    user = request.user
    return {
        "article": article,
        "coverage": coverage,
        "entries": entries,
        "posts": list(SocialPost.objects.filter(article=article)),
        "editors": {code: entry_editor(code) for code in DESK_LANGUAGES},
        "may_run": user.has_perm(perms.RUN_LIVECOVERAGE),
        "may_add": user.has_perm(perms.ADD_LIVEENTRY),
        "may_change": user.has_perm(perms.CHANGE_LIVEENTRY),
        "may_delete": user.has_perm(perms.DELETE_LIVEENTRY),
        "urls": {
            name: reverse(f"admin:live_desk_{name}", args=[article.pk])
            for name in ("state", "add", "entries")
        },
    }


def desk_html(request, article: Article) -> str:
    return render_to_string(
        "admin/live/desk.html", desk_context(request, article), request
    )


def _entries_html(request, article: Article) -> str:
    return render_to_string(
        "admin/live/desk_entries.html", desk_context(request, article), request
    )


def _answer(request, article: Article, *, message: str, status: int = 200):
    """The desk's answer: JSON for live_desk.js, a redirect for a plain form."""
    if request.headers.get("Accept", "").startswith("application/json"):
        coverage = LiveCoverage.objects.filter(article=article).first()
        return JsonResponse(
            {
                "ok": status == 200,
                "message": message,
                "state": coverage.state if coverage else "",
                "stateLabel": str(coverage.get_state_display()) if coverage else "",
                "entries": _entries_html(request, article) if status == 200 else "",
            },
            status=status,
        )
    level = messages.SUCCESS if status == 200 else messages.ERROR
    messages.add_message(request, level, message)
    url = reverse("admin:articles_article_change", args=[article.pk])
    return HttpResponseRedirect(f"{url}#live-desk")


def _refused(request, article: Article, error: Exception):
    if isinstance(error, PermissionDenied):
        message = str(error) or _("You may not do this.")
        return _answer(request, article, message=message, status=403)
    return _answer(request, article, message=" ".join(error.messages), status=400)


def _texts(request, name: str) -> dict[str, str]:
    """The text the form holds in each language (`headline_ar`, `body_en`…)."""
    return {code: request.POST.get(f"{name}_{code}", "") for code in DESK_LANGUAGES}


def _placed(request, article: Article) -> dict:
    """The post and picture the form places in the entry, refused if unknown."""
    post = image = None
    post_id = request.POST.get("post", "").strip()
    if post_id:
        post = SocialPost.objects.filter(pk=_number(post_id), article=article).first()
        if post is None:
            raise ValidationError(_("That social post is not one of this story's."))
    image_id = request.POST.get("image", "").strip()
    if image_id:
        image = Image.objects.filter(pk=_number(image_id)).first()
        if image is None:
            raise ValidationError(_("No picture in the library has that number."))
    return {"post": post, "image": image}


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValidationError(
            _("“%(value)s” is not a number.") % {"value": text}
        ) from None


def _flag(request, name: str) -> bool:
    return request.POST.get(name) in ("1", "on", "true")


def _story(object_id: int) -> Article:
    return get_object_or_404(Article, pk=object_id)


def _entry(article: Article, entry_id: int) -> LiveEntry:
    entry = LiveEntry.objects.filter(pk=entry_id, article=article).first()
    if entry is None:
        raise Http404
    return entry


@require_POST
def state_view(request, object_id: int):
    """Start (or resume), pause or end the coverage."""
    article = _story(object_id)
    moves = {
        "start": (services.live_start, _("The live coverage is live.")),
        "pause": (services.live_pause, _("The live coverage is paused.")),
        "end": (services.live_end, _("The live coverage has ended.")),
    }
    move = moves.get(request.POST.get("action", ""))
    if move is None:
        return _answer(request, article, message=_("Unknown action."), status=400)
    try:
        move[0](article=article, by=request.user)
    except (PermissionDenied, ValidationError) as error:
        return _refused(request, article, error)
    return _answer(request, article, message=str(move[1]))


@require_POST
def add_view(request, object_id: int):
    """Post a new entry, or (with `entry`) change one."""
    article = _story(object_id)
    try:
        placed = _placed(request, article)
        fields = {
            "headline": _texts(request, "headline"),
            "body": _texts(request, "body"),
            "is_key_event": _flag(request, "is_key_event"),
            **placed,
        }
        entry_id = request.POST.get("entry", "").strip()
        if entry_id:
            entry = _entry(article, _number(entry_id))
            services.live_entry_change(entry=entry, by=request.user, **fields)
            message = _("The entry is changed.")
        else:
            services.live_entry_add(
                article=article,
                by=request.user,
                is_pinned=_flag(request, "is_pinned"),
                **fields,
            )
            message = _("The entry is posted.")
    except (PermissionDenied, ValidationError) as error:
        return _refused(request, article, error)
    return _answer(request, article, message=message)


@require_POST
def entry_view(request, object_id: int, entry_id: int, action: str):
    """Pin, unpin, correct or delete one entry."""
    article = _story(object_id)
    entry = _entry(article, entry_id)
    try:
        if action in ("pin", "unpin"):
            services.live_entry_pin(
                entry=entry, by=request.user, pinned=action == "pin"
            )
            message = (
                _("The entry is pinned.")
                if action == "pin"
                else _("The entry is unpinned.")
            )
        elif action == "correct":
            services.live_entry_correct(
                entry=entry, by=request.user, text=_texts(request, "correction")
            )
            message = _("The correction is printed on the entry.")
        elif action == "delete":
            services.live_entry_delete(
                entry=entry, by=request.user, reason=request.POST.get("reason", "")
            )
            message = _("The entry is deleted.")
        else:
            raise Http404
    except (PermissionDenied, ValidationError) as error:
        return _refused(request, article, error)
    return _answer(request, article, message=message)


def entries_view(request, object_id: int):
    """The desk's list of entries as it now stands (live_desk.js refreshes it)."""
    article = _story(object_id)
    if not may_use_desk(request.user):
        raise PermissionDenied
    return JsonResponse({"entries": _entries_html(request, article)})
