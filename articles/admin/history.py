"""The story's revisions in the admin: the list, a side-by-side comparison of any
two, and restoring one (through the service), after a confirmation when readers
would see the change."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext

from ..models import Article, Status
from ..revision_diff import compare
from ..revisions import revisions_of, snapshot
from ..services import article_restore
from ..workflow import may_edit, state_of


def _story(model_admin, request, object_id) -> Article:
    article = get_object_or_404(Article, pk=object_id)
    if not model_admin.has_view_permission(request, article):
        raise PermissionDenied
    return article


def restore_asks_first(article: Article) -> bool:
    """Whether restoring waits for a confirmation: a published story's restore
    reaches readers (at once, or when it is scheduled or its embargo lifts). A
    draft's does not, and is undone by restoring the revision before it."""
    return article.status == Status.PUBLISHED


def revisions_view(model_admin, request, object_id):
    """List the revisions; with ?a=…&b=…, compare those two side by side."""
    article = _story(model_admin, request, object_id)
    revisions = list(revisions_of(article))
    by_id = {str(revision.pk): revision for revision in revisions}
    first, second = request.GET.get("a"), request.GET.get("b")
    comparison = None
    if first in by_id and second in by_id:
        older, newer = sorted([by_id[first], by_id[second]], key=lambda r: r.pk)
        comparison = {
            "older": older,
            "newer": newer,
            "changes": compare(snapshot(older, article), snapshot(newer, article)),
        }
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": gettext("Revisions of story #%(id)s") % {"id": article.pk},
        "article": article,
        "revisions": revisions,
        "comparison": comparison,
        "selected": (first, second),
        "can_restore": may_edit(article, request.user),
        "restore_asks_first": restore_asks_first(article),
    }
    return TemplateResponse(request, "admin/articles/article/revisions.html", context)


def restore_view(model_admin, request, object_id, revision_id):
    """GET: what restoring the revision would change, and a button to do it.
    POST: restore it as a new revision; the story's state does not change. A
    published story's restore is made only from the confirmation (`confirmed`):
    a button on a page opened while it was a draft leads to the question first."""
    article = _story(model_admin, request, object_id)
    if not may_edit(article, request.user):
        raise PermissionDenied
    revisions = list(revisions_of(article))
    revision = next((r for r in revisions if r.pk == revision_id), None)
    if revision is None:
        raise Http404(gettext("This story has no such revision."))
    confirm_url = reverse(
        "admin:articles_article_restore", args=[article.pk, revision.pk]
    )
    if request.method != "POST" or (
        restore_asks_first(article) and "confirmed" not in request.POST
    ):
        if request.method == "POST":
            return redirect(confirm_url)
        return _confirmation(model_admin, request, article, revision, revisions[0])
    try:
        article_restore(article=article, by=request.user, revision=revision)
    except (ValidationError, PermissionDenied) as refusal:
        reasons = getattr(refusal, "messages", None) or [str(refusal)]
        model_admin.message_user(request, " ".join(reasons), messages.ERROR)
        return redirect(reverse("admin:articles_article_revisions", args=[article.pk]))
    model_admin.message_user(request, _restored(article), messages.SUCCESS)
    return redirect(reverse("admin:articles_article_change", args=[article.pk]))


def _restored(article: Article) -> str:
    """What the desk says after a restore: where readers meet the restored text."""
    state = state_of(article).key
    if state == "published":
        return gettext(
            "The revision was restored as a new revision: the live page shows it now."
        )
    if state in {"scheduled", "embargoed"}:
        at = article.published_at if state == "scheduled" else article.embargo_until
        return gettext(
            "The revision was restored as a new revision: it is what readers get "
            "from %(time)s."
        ) % {"time": date_format(localtime(at), "DATETIME_FORMAT")}
    return gettext(
        "The revision was restored as a new revision; the story's state is unchanged."
    )


def _confirmation(model_admin, request, article, revision, latest):
    """The question before a restore, with what it would change."""
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": gettext("Restore a revision of story #%(id)s?") % {"id": article.pk},
        "article": article,
        "revision": revision,
        "state": state_of(article).key,
        "asks_first": restore_asks_first(article),
        # From the story as it stands (its newest revision) to the one restored.
        "changes": compare(snapshot(latest, article), snapshot(revision, article)),
    }
    return TemplateResponse(
        request, "admin/articles/article/restore_confirm.html", context
    )
