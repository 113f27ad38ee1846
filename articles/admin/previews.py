"""Share links of a story's preview, made and revoked through the services, on the
story's admin. The preview page itself is the read side's: publishing/admin.py adds
it (and the Preview button) to this admin."""

from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ..models import Article, PreviewLink
from ..services import preview_link_create, preview_link_revoke


class PreviewAdminMixin:
    """For the article admin: the story's share links."""

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        if obj is not None:
            context.update(self._preview_context(request, obj))
        return super().render_change_form(request, context, *args, obj=obj, **kwargs)

    def _preview_context(self, request, obj) -> dict:
        """Share links and their list, for those who may change the story."""
        can_change = self.has_change_permission(request, obj)
        links = obj.preview_links.active() if can_change else []
        return {
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

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
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
