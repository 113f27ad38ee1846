"""The live desk on the story's admin page: a panel below the story's form and the
addresses its form posts to (live.desk), added from this app's side."""

from django.urls import path

from articles.admin import extend_article_admin, registered_article_admin

from . import desk

StoryAdmin = registered_article_admin()


class ArticleAdmin(StoryAdmin):
    """The article admin with the live desk."""

    def render_change_form(self, request, context, *args, obj=None, **kwargs):
        if obj is not None and desk.may_use_desk(request.user):
            panels = context.setdefault("story_panels", [])
            panels.append(desk.desk_html(request, obj))
            context["live_desk"] = True
        return super().render_change_form(request, context, *args, obj=obj, **kwargs)

    def get_urls(self):
        def view(function, **kwargs):
            return self.admin_site.admin_view(function)

        return [
            path(
                "<int:object_id>/live/state/",
                view(desk.state_view),
                name="live_desk_state",
            ),
            path(
                "<int:object_id>/live/entries/add/",
                view(desk.add_view),
                name="live_desk_add",
            ),
            path(
                "<int:object_id>/live/entries/",
                view(desk.entries_view),
                name="live_desk_entries",
            ),
            path(
                "<int:object_id>/live/entries/<int:entry_id>/<str:action>/",
                view(desk.entry_view),
                name="live_desk_entry",
            ),
            *super().get_urls(),
        ]


extend_article_admin(ArticleAdmin)
