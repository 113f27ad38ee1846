"""What the read side adds to the story's admin: the Preview button and the page it
opens, the story as readers would see it (publishing.views.previews)."""

from django.urls import path, reverse

from articles.admin import story_admin

from .views import ArticlePreviewView


@story_admin.form_context
def preview_buttons(model_admin, request, article) -> dict:
    if article is None:
        return {}
    return {
        "preview_url": reverse(
            "admin:articles_article_preview",
            args=[article.pk],
            current_app=model_admin.admin_site.name,
        ),
        "can_preview": model_admin.has_view_permission(request, article),
        "can_preview_changes": model_admin.has_change_permission(request, article),
    }


@story_admin.urls
def preview_urls(model_admin) -> list:
    return [
        path(
            "<path:object_id>/preview/",
            model_admin.admin_site.admin_view(
                ArticlePreviewView.as_view(model_admin=model_admin)
            ),
            name="articles_article_preview",
        )
    ]
