"""The public page of a news outlet: the articles that credit it."""

from django.shortcuts import get_object_or_404
from django.urls import reverse

from core.text import safe_url
from edge.keys import LISTS, key_of
from publishing.views import ArticleListView, other_languages_urls
from sources.models import Attribution, Source


class SourceView(ArticleListView):
    template_name = "sources/source_detail.html"

    def get_queryset(self):
        self.source = get_object_or_404(Source, slug=self.kwargs["slug"])
        # A semi-join: one article may credit the same outlet in two roles, and the
        # latest-first index can be walked instead of sorting every credited story.
        credits = Attribution.objects.filter(source=self.source).order_by()
        return super().get_queryset().filter(pk__in=credits.values("article_id"))

    def feed(self) -> tuple[str, str]:
        url = reverse("sources:feed", kwargs={"slug": self.source.slug})
        return url, self.source.name

    def edge_keys(self) -> set[str]:
        return {LISTS, key_of(self.source)}

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            source=self.source,
            homepage=safe_url(self.source.homepage),
            alternate_urls=other_languages_urls(self.source),
            **kwargs,
        )
