"""What the importer adds to the article admin: the "Import story" page and pasting
a post's URL or embed code into the social-post inline."""

from functools import partial

from django.urls import path

from articles.admin import (
    SocialPostInline,
    extend_article_admin,
    registered_article_admin,
)

from .forms import SocialPostPasteForm
from .views import ImportStoryView, recognize_post


class PastingSocialPostInline(SocialPostInline):
    form = SocialPostPasteForm


StoryAdmin = registered_article_admin()


class ArticleAdmin(StoryAdmin):
    """The article admin with the import page and the pasting post inline."""

    inlines = tuple(
        PastingSocialPostInline if inline is SocialPostInline else inline
        for inline in StoryAdmin.inlines
    )
    change_list_template = "ingest/article_change_list.html"

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path(
                "import/",
                wrap(ImportStoryView.as_view(model_admin=self)),
                name="articles_article_import",
            ),
            path(
                "recognize-post/",
                wrap(partial(recognize_post, model_admin=self)),
                name="articles_article_recognize_post",
            ),
            *super().get_urls(),
        ]


extend_article_admin(ArticleAdmin)
