"""What the read side adds to the story's admin: the Preview button and the page it
opens, the story as readers would see it (publishing.views.previews)."""

from django.urls import path, reverse

from articles.admin import extend_article_admin, registered_article_admin

from .views import ArticlePreviewView

StoryAdmin = registered_article_admin()


class ArticleAdmin(StoryAdmin):
    """The article admin with the story's preview."""

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        if obj is not None:
            can_change = self.has_change_permission(request, obj)
            context.update(
                preview_url=reverse(
                    "admin:articles_article_preview",
                    args=[obj.pk],
                    current_app=self.admin_site.name,
                ),
                can_preview=self.has_view_permission(request, obj),
                can_preview_changes=can_change,
            )
        return super().render_change_form(request, context, *args, obj=obj, **kwargs)

    def get_urls(self):
        return [
            path(
                "<path:object_id>/preview/",
                self.admin_site.admin_view(
                    ArticlePreviewView.as_view(model_admin=self)
                ),
                name="articles_article_preview",
            ),
            *super().get_urls(),
        ]


extend_article_admin(ArticleAdmin)
