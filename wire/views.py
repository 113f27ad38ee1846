"""The editors' incoming wire: a small list (newest first, filters, search),
"take" (a draft now) and an offered update with its diff. Attached to the admin
by `wire.admin`, behind its login; each view checks its own permission."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.http import require_POST

from arabic import search_fold
from articles import permissions as perms
from core.echo import typed
from ingest.problems import StoryImportError
from sources.models import Source

from .drafts import update_diff
from .formats import WireItem
from .formats.item import BREAKING_URGENCY
from .models import AgencyItem
from .services import refusal_recorded, wire_take, wire_update_apply

PAGE = 50


class IncomingWireView(View):
    model_admin = None

    def get(self, request):
        if not request.user.has_perm(perms.VIEW_AGENCYITEM):
            raise PermissionDenied
        rows = AgencyItem.objects.incoming()
        agency = request.GET.get("agency", "")
        # A number the database can hold (a longer one is an address typed wrong).
        if agency.isdigit() and len(agency) < 10:
            rows = rows.filter(source_id=agency)
        if request.GET.get("urgent"):
            rows = rows.filter(urgency__lte=BREAKING_URGENCY)
        language = request.GET.get("language", "")
        if language in ("ar", "en"):
            rows = rows.filter(language=language)
        # The search box shows back what was typed (a token until the page is
        # read, see core.echo); the rows are searched for the words themselves.
        query = request.GET.get("q", "")
        searched = typed(request, query).strip()[:200]
        if searched:
            rows = rows.filter(search_text__contains=search_fold(searched))
        page = request.GET.get("page", "")
        page = min(int(page), 10_000) if page.isdigit() and int(page) > 0 else 1
        shown = list(rows[(page - 1) * PAGE : page * PAGE + 1])
        context = {
            **admin.site.each_context(request),
            "title": AgencyItem._meta.verbose_name_plural,
            "rows": shown[:PAGE],
            "next_page": page + 1 if len(shown) > PAGE else None,
            "page": page,
            "agencies": Source.objects.filter(wire_channels__isnull=False)
            .distinct()
            .order_by("name"),
            "filters": {
                "agency": agency,
                "language": language,
                "q": query,
                "urgent": bool(request.GET.get("urgent")),
            },
            "may_take": request.user.has_perm(perms.ADD_ARTICLE),
            "opts": AgencyItem._meta,
        }
        return render(request, "wire/incoming.html", context)


@require_POST
def take_view(request, pk: int):
    row = get_object_or_404(AgencyItem, pk=pk)
    try:
        result = wire_take(agency_item=row, by=request.user)
    except StoryImportError as exc:
        for problem in exc.errors:
            messages.error(request, problem.message)
        return redirect(reverse("admin:wire_agencyitem_changelist"))
    article = result.article
    messages.success(
        request,
        _("Taken from the wire as a draft: “%(headline)s”.") % {"headline": article},
    )
    for problem in result.warnings:
        messages.warning(request, problem.message)
    if result.proposed_people:
        messages.info(
            request,
            _(
                "The copy names people the newsroom does not know yet: %(names)s. Add "
                "those who belong in the story under People named."
            )
            % {"names": _(", ").join(p.name for p in result.proposed_people)},
        )
    return redirect(reverse("admin:articles_article_change", args=[article.pk]))


def update_view(request, pk: int):
    """The agency's offered version beside the story (GET); apply it (POST)."""
    if not request.user.has_perm(perms.VIEW_AGENCYITEM):
        raise PermissionDenied
    row = get_object_or_404(AgencyItem.objects.select_related("article"), pk=pk)
    if row.pending is None or row.article is None:
        return redirect(reverse("admin:wire_agencyitem_changelist"))
    if request.method == "POST":
        try:
            article = wire_update_apply(agency_item=row, by=request.user)
        except (StoryImportError, ValidationError, PermissionDenied) as exc:
            refusal_recorded(exc, request.user)  # undone with the service's rollback
            problems = getattr(exc, "errors", None) or []
            for message in [p.message for p in problems] or getattr(
                exc, "messages", [str(exc)]
            ):
                messages.error(request, message)
        else:
            return redirect(reverse("admin:articles_article_change", args=[article.pk]))
    item = WireItem.from_json(row.pending)
    return render(
        request,
        "wire/update.html",
        {
            **admin.site.each_context(request),
            "row": row,
            "item": item,
            "diff": update_diff(row.article, item),
            "title": row.headline,
            "opts": AgencyItem._meta,
        },
    )
