"""The admin's "Import story" page (paste or upload, preview, confirm) and the
post-recognizing endpoint of the social-post inline.

Both are attached to the article admin by `ingest.admin`, behind the admin's login
and the article admin's add permission.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.http import require_POST

from articles import permissions as perms
from core.ratelimit import rate_limited

from .budget import time_budget
from .forms import ConfirmImportForm, ImportStoryForm, recognize_paste_for_form
from .problems import StoryImportError
from .services import story_import

TEMPLATE = "ingest/import_story.html"


# A paste is parsed on every preview: a client gets a bounded share of the workers.
@method_decorator(rate_limited("import", methods=("POST",)), name="dispatch")
class ImportStoryView(View):
    """Step 1 shows what was recognized; step 2 ("confirm") creates the draft."""

    model_admin = None  # the article admin this page belongs to

    def dispatch(self, request, *args, **kwargs):
        if not self.model_admin.has_add_permission(request):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request):
        return self._render(request, form=ImportStoryForm())

    def post(self, request):
        # One budget for the whole request: the confirm step reads the text twice.
        with time_budget():
            return self._post(request)

    def _post(self, request):
        if "confirm" in request.POST:
            return self._confirm(request)
        form = ImportStoryForm(request.POST, request.FILES)
        if not form.is_valid():
            return self._render(request, form=form)
        text = form.story_text
        result, problems = self._preview(text)
        if result is not None:
            problems = getattr(form, "decode_warnings", []) + result.problems
        return self._render_preview(
            request, text=text, result=result, problems=problems, origin=form.origin
        )

    def _confirm(self, request):
        unknown = request.POST.getlist("confirm_sources")
        # The proposals are read again from the same text, so the editor's answers
        # are checked against what the importer proposes, not against the request.
        preview, problems = self._preview(request.POST.get("text", ""))
        if any(p.code == "protected_name" for p in problems):
            # Refused (and recorded) already: importing it again would refuse and
            # record it twice for one click.
            return self._render_preview(
                request,
                text=request.POST.get("text", ""),
                result=preview,
                problems=problems,
                origin=request.POST.get("origin", "")[:255],
            )
        confirm = ConfirmImportForm(
            request.POST, unknown_sources=unknown, result=preview
        )
        if not confirm.is_valid():
            return self._render(request, form=ImportStoryForm(), confirm=confirm)
        text = confirm.cleaned_data["text"]
        try:
            result = story_import(
                text=text,
                by=request.user,
                allow_duplicate=confirm.cleaned_data["allow_duplicate"],
                confirm_sources=confirm.cleaned_data["confirm_sources"],
                confirmation=confirm.confirmation(),
                origin=confirm.cleaned_data["origin"],
            )
        except StoryImportError as exc:
            return self._render_preview(
                request,
                text=text,
                result=exc.result,
                problems=exc.problems,
                origin=confirm.cleaned_data["origin"],
            )
        article = result.article
        messages.success(
            request,
            _("The story was imported as draft #%(id)s: %(headline)s")
            % {"id": article.pk, "headline": result.story.headline},
        )
        for alert in result.alerts:
            messages.error(request, str(alert))
        return redirect(reverse("admin:articles_article_change", args=[article.pk]))

    def _render_preview(self, request, *, text, result, problems, origin=""):
        """What was recognized, with the form to confirm (or fix) the import."""
        unknown = [m.candidate.name for m in result.unknown_sources] if result else []
        left_to_managers = []
        if not self._may_add_sources:
            # Keeping the list of outlets is the source managers' work: the story is
            # imported without the credit rather than offer a choice that is refused.
            left_to_managers, unknown = unknown, []
        return self._render(
            request,
            form=ImportStoryForm(initial={"text": text}),
            result=result,
            problems=problems,
            confirm=ConfirmImportForm(
                initial={"text": text, "origin": origin},
                unknown_sources=unknown,
                result=result,
            ),
            left_to_managers=left_to_managers,
        )

    @property
    def _may_add_sources(self) -> bool:
        return self.request.user.has_perm(perms.ADD_SOURCE)

    def _preview(self, text: str):
        try:
            return story_import(text=text, by=self.request.user, dry_run=True), []
        except StoryImportError as exc:
            return exc.result, exc.problems

    def _render(
        self,
        request,
        *,
        form,
        result=None,
        problems=(),
        confirm=None,
        left_to_managers=(),
    ):
        problems = list(problems)
        context = {
            **self.model_admin.admin_site.each_context(request),
            "opts": self.model_admin.opts,
            "title": _("Import story"),
            "form": form,
            "result": result,
            "confirm": confirm,
            "errors": [p for p in problems if p.level == "error"],
            "alerts": [p for p in problems if p.level == "alert"],
            "warnings": [p for p in problems if p.level == "warning"],
            "can_import": result is not None and _only_duplicate(result, problems),
            "is_duplicate": bool(result and result.duplicate_of),
            "sources_left_to_managers": left_to_managers,
        }
        return render(request, TEMPLATE, context)


def _only_duplicate(result, problems) -> bool:
    """Nothing stops the import but, perhaps, a duplicate the editor may accept."""
    errors = [p for p in problems if p.is_error]
    return not errors or (bool(result.duplicate_of) and len(errors) == 1)


@require_POST
@rate_limited("recognize", methods=("POST",), as_json=True)
def recognize_post(request, model_admin):
    """The fields a pasted post URL or embed code fills, for the inline's script."""
    may_edit = model_admin.has_add_permission(request) or (
        model_admin.has_change_permission(request)
    )
    if not may_edit:
        raise PermissionDenied
    values, messages = recognize_paste_for_form(request.POST.get("paste", "")[:100_000])
    fields = {}
    for name, value in values.items():
        if name == "posted_on" and value:
            fields["posted_on"] = value.isoformat()
        elif isinstance(value, list):
            fields[name] = "\n".join(value)
        elif value:
            fields[name] = value
    return JsonResponse({"fields": fields, "messages": messages})
