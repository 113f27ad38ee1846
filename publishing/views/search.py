"""The public search page (the search itself is in publishing.search)."""

from datetime import date

from django.conf import settings
from django.urls import translate_url
from django.utils.dateparse import parse_date
from django.utils.decorators import method_decorator
from django.utils.translation import get_language

from core.echo import reader_echo, typed
from core.ratelimit import rate_limited
from edge.keys import SEARCH

from .. import search
from .lists import ArticleListView


def date_param(value: str) -> date | None:
    """A YYYY-MM-DD query parameter, or None when it is missing or not a date."""
    try:
        return parse_date(value or "")
    except ValueError:  # well formed but impossible, such as 2025-02-30
        return None


# Full-text search costs the database more than any other page a reader can ask for.
@method_decorator(rate_limited("search", methods=("GET",)), name="dispatch")
class SearchView(ArticleListView):
    """Published stories of this edition matching `?q=`, best match first, narrowed
    by `?section=slug`, `?from=` and `?to=` (YYYY-MM-DD)."""

    template_name = "articles/search.html"
    # Results are ranked, not dated: numbered pages (few readers go deep).
    keyset = None
    query_parameters = ("q", "section", "from", "to", "page")

    def edge_keys(self) -> set[str]:
        return {SEARCH}

    def get_queryset(self):
        params = self.request.GET
        # A query value spelling a protected name is a token by now (core.echo):
        # searched for as typed, like any other.
        self.query = typed(self.request, params.get("q", ""))[: search.MAX_QUERY_LENGTH]
        self.filters = {
            "section": params.get("section", "")[:100],
            "date_from": date_param(params.get("from", "")),
            "date_to": date_param(params.get("to", "")),
        }
        return search.search_articles(
            self.query,
            language=get_language() or settings.LANGUAGE_CODE,
            section=self.filters["section"] or None,
            date_from=self.filters["date_from"],
            date_to=self.filters["date_to"],
        )

    def get_context_data(self, **kwargs):
        # The query as the page shows it back, read past by the output check; the
        # links to this page in the other editions carry it too.
        echo = reader_echo(self.request, "q", self.query)
        here = f"{self.request.path}?{self.request.GET.urlencode()}"
        context = super().get_context_data(
            search_query=echo,
            alternate_urls={
                code: translate_url(here, code) for code, _name in settings.LANGUAGES
            },
            searched=bool(search.query_terms(self.query)),
            window_full=self.object_list.window_full,
            search_window=search.SEARCH_WINDOW,
            **self.filters,
            **kwargs,
        )
        language = get_language() or settings.LANGUAGE_CODE
        for article in context["articles"]:
            article.snippet = search.article_snippet(
                article, self.query, language=language
            )
        return context
