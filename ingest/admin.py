"""What the importer adds to the article admin: the "Import story" page and pasting
a post's URL or embed code into the social-post inline."""

from functools import partial

from django.urls import path
from django.utils.translation import gettext_lazy as _

from articles import permissions as perms
from articles.admin import ListTool, SocialPostInline, story_admin

from .forms import SocialPostPasteForm
from .views import ImportStoryView, recognize_post


class PastingSocialPostInline(SocialPostInline):
    form = SocialPostPasteForm


story_admin.add_inline(PastingSocialPostInline, replacing=SocialPostInline)
story_admin.add_list_tool(
    ListTool(
        title=_("Import story"),
        url_name="admin:articles_article_import",
        may_use=lambda request: request.user.has_perm(perms.ADD_ARTICLE),
    )
)


@story_admin.urls
def import_urls(model_admin) -> list:
    wrap = model_admin.admin_site.admin_view
    return [
        path(
            "import/",
            wrap(ImportStoryView.as_view(model_admin=model_admin)),
            name="articles_article_import",
        ),
        path(
            "recognize-post/",
            wrap(partial(recognize_post, model_admin=model_admin)),
            name="articles_article_recognize_post",
        ),
    ]
