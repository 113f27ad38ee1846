"""The story's revisions in the admin: the list, a side-by-side comparison of any
two, and restoring one (through the service)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext

from ..models import Article
from ..revision_diff import compare
from ..revisions import revisions_of, snapshot
from ..services import article_restore
from ..workflow import may_edit


def _story(model_admin, request, object_id) -> Article:
    article = get_object_or_404(Article, pk=object_id)
    if not model_admin.has_view_permission(request, article):
        raise PermissionDenied
    return article


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
    }
    return TemplateResponse(request, "admin/articles/article/revisions.html", context)


def restore_view(model_admin, request, object_id, revision_id):
    """Restore one revision as a new one; the story's state does not change."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    article = _story(model_admin, request, object_id)
    revision = next(
        (r for r in revisions_of(article) if r.pk == int(revision_id)), None
    )
    if revision is None:
        raise PermissionDenied
    try:
        article_restore(article=article, by=request.user, revision=revision)
    except (ValidationError, PermissionDenied) as refusal:
        reasons = getattr(refusal, "messages", None) or [str(refusal)]
        model_admin.message_user(request, " ".join(reasons), messages.ERROR)
        return redirect(reverse("admin:articles_article_revisions", args=[article.pk]))
    model_admin.message_user(
        request,
        gettext(
            "The revision was restored as a new revision; the story's state is "
            "unchanged."
        ),
        messages.SUCCESS,
    )
    return redirect(reverse("admin:articles_article_change", args=[article.pk]))
