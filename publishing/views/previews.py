"""Previews of a story before it is published: for editors in the admin, and
through signed share links for readers outside the newsroom."""

import logging

from django.conf import settings
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from django.views.generic import DetailView

from articles.exposure import story_rows
from articles.models import Article, PreviewLink, PreviewLinkClosed, Status
from identity.gate import IdentityGate

from .story_page import story_page_context

logger = logging.getLogger(__name__)

NOINDEX = "noindex, nofollow"


class PreviewMixin:
    """An article page read before publication: marked as a preview, and never
    indexed or cached, whatever the answer. The story is rendered as the public
    page renders it (story_page_context), with the preview's own edition links."""

    template_name = "articles/article_preview.html"
    context_object_name = "article"

    def edition_urls(self) -> dict[str, str]:
        raise NotImplementedError

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            **story_page_context(
                self.request, self.object, edition_urls=self.edition_urls()
            ),
            **kwargs,
        )

    @method_decorator(never_cache)
    def dispatch(self, request, *args, **kwargs):
        response = super().dispatch(request, *args, **kwargs)
        response.headers["X-Robots-Tag"] = NOINDEX
        return response

    def unavailable(self, status: int) -> TemplateResponse:
        """The same short page for every link that cannot show its story."""
        return TemplateResponse(
            self.request, "articles/preview_unavailable.html", status=status
        )


class SharedPreviewView(PreviewMixin, DetailView):
    """A story opened with a share link, by a reader who needs no account.

    A forged, tampered or unknown link answers 404, an expired or revoked one 410,
    and a story that would show a protected legal name 403; none of these pages
    says anything about the story.
    """

    def get(self, request, *args, **kwargs):
        try:
            link = PreviewLink.objects.get_signed(kwargs["signed"])
        except PreviewLink.DoesNotExist:
            return self.unavailable(404)
        except PreviewLinkClosed:
            return self.unavailable(410)
        self.object = Article.objects.for_detail().get(pk=link.article_id)
        if self.object.status == Status.KILLED:
            return self.unavailable(410)  # killed is gone, for previews too
        # The reader is public: the gate runs on every opening, since a person may
        # have become protected after the link was made.
        if IdentityGate.load().leaks(story_rows(self.object)):
            logger.warning(
                "Preview link #%s withheld story #%s: it holds a protected legal name.",
                link.pk,
                link.article_id,
            )
            return self.unavailable(403)
        context = self.get_context_data(object=self.object, preview_link=link)
        return self.render_to_response(context)

    def edition_urls(self) -> dict[str, str]:
        return {}  # the language switch then keeps the signed address


class ArticlePreviewView(PreviewMixin, DetailView):
    """The story for its editors, in the public templates: as the change form holds
    it (POST; nothing is saved) or as saved (GET).

    Attached to the article admin, which passes itself as `model_admin`; `?language=`
    shows another edition.
    """

    model_admin = None

    def dispatch(self, request, *args, **kwargs):
        language = request.GET.get("language")
        if language not in dict(settings.LANGUAGES):
            language = get_language()
        with translation.override(language):
            response = super().dispatch(request, *args, **kwargs)
            # Rendered here, while the edition's language is active.
            return response.render() if hasattr(response, "render") else response

    def story(self, request, object_id: str) -> Article:
        """The saved story, if the user may view it."""
        model_admin = self.model_admin
        if not model_admin.has_view_permission(request):
            raise PermissionDenied
        article = model_admin.get_object(request, unquote(object_id))
        if article is None:
            raise Http404
        if not model_admin.has_view_permission(request, article):
            raise PermissionDenied
        return article

    def get(self, request, object_id):
        self.object = self.story(request, object_id)
        return self.render_to_response(self.get_context_data(object=self.object))

    def post(self, request, object_id):
        article = self.story(request, object_id)
        if not self.model_admin.has_change_permission(request, article):
            raise PermissionDenied
        form_class = self.model_admin.get_form(request, article, change=True)
        form = form_class(request.POST, request.FILES, instance=article)
        if not form.is_valid():
            return self.form_invalid(form)
        self.object = form.instance
        context = self.get_context_data(object=self.object, preview_unsaved=True)
        return self.render_to_response(context)

    def form_invalid(self, form) -> TemplateResponse:
        """A small admin page saying the form cannot be previewed, and why."""
        errors = [
            (
                form.fields[name].label if name in form.fields else "",
                [message for error in problems for message in error.messages],
            )
            for name, problems in form.errors.as_data().items()
        ]
        context = {
            **self.model_admin.admin_site.each_context(self.request),
            "title": gettext("The story cannot be previewed"),
            "errors": errors,
        }
        return TemplateResponse(
            self.request, "admin/articles/article/preview_invalid.html", context
        )

    def edition_urls(self) -> dict[str, str]:
        url = reverse(
            "admin:articles_article_preview",
            args=[self.object.pk],
            current_app=self.model_admin.admin_site.name,
        )
        return {
            code: f"{url}?{urlencode({'language': code})}"
            for code, _name in settings.LANGUAGES
        }
