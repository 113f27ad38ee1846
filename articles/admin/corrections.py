"""Corrections on the story's admin: the ledger listed on its page, and a page of
its own to add one (through the service)."""

from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext

from .. import permissions as perms
from ..forms import CorrectionForm
from ..services import correction_add


class CorrectionAdminMixin:
    """For the article admin: the correction ledger and its "add" page."""

    def has_add_correction_permission(self, request) -> bool:
        return request.user.has_perm(perms.ADD_CORRECTION)

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        context.update(
            # Listed read-only; an entry is only ever added, on its own page.
            corrections=(
                list(obj.corrections.select_related("created_by")) if obj else []
            ),
            can_add_correction=self.has_add_correction_permission(request),
        )
        return super().render_change_form(request, context, *args, obj=obj, **kwargs)

    def get_urls(self):
        return [
            path(
                "<path:object_id>/correction/",
                self.admin_site.admin_view(self.add_correction_view),
                name="articles_article_add_correction",
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
