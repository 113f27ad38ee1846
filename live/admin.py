"""The live desk on the story's admin page: a panel below the story's form and the
addresses its form posts to (live.desk), added from this app's side."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from articles.admin import StoryPanel, story_admin

from . import desk


@story_admin.panel
def live_desk(model_admin, request, article) -> StoryPanel | None:
    if not desk.may_use_desk(request.user):
        return None
    return StoryPanel("live-desk", _("Live desk"), desk.desk_html(request, article))


@story_admin.urls
def desk_urls(model_admin) -> list:
    view = model_admin.admin_site.admin_view
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
    ]
