"""The public article page: the gate every request passes, then the story's
fragments from the cache (rendered by publishing.views.story_page on a miss)."""

from functools import cache, partial
from time import time

from django.db import connections, router
from django.db.models.functions import Now
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import http_date
from django.views.generic import DetailView

from articles.models import Article, Status
from core import generations, prepared
from core.ids import is_row_id

from .. import fragments
from ..navigation import navigation_part
from .story_page import StoryPage, page_context

# Stands for the story's pk while the gate's SQL is compiled (no story has it).
_PK_MARK = -7_301_999


@cache
def _gate_sql(alias: str) -> tuple[str, tuple, int, tuple[str, ...], dict]:
    """The SQL of `published().for_gate()` for one story, compiled once per process
    and database: building it (modeltranslation adds each language's columns) cost
    more than running it. "Now" is the database's clock, so the SQL stays the same
    from one request to the next (and PostgreSQL runs it prepared, planned once per
    connection: core/prepared.py); the rule is still `published()`'s own.

    Returns the SQL, its parameters, the position of the story's pk in them, the
    names of the fields it selects, in order, and the converters of their values.

    Django has no public API for a queryset's SQL, selected columns and converters;
    this reads the compiler's (get_compiler(), as_sql(), select, get_converters()),
    checked against Django 5.2. tests/publishing/test_gate.py pins what it relies on:
    test_the_gate_reads_the_story_as_the_orm_does compares every field read.
    """
    story = Article.objects.for_gate().published(at=Now()).filter(pk=_PK_MARK)
    compiler = story.order_by().query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    (position,) = [i for i, value in enumerate(params) if value == _PK_MARK]
    columns = [column for column, _sql, _alias in compiler.select]
    fields = tuple(column.target.attname for column in columns)
    return sql, tuple(params), position, fields, compiler.get_converters(columns)


def public_story(pk: int) -> Article | None:
    """The story if readers may see it now, with the few columns of for_gate()."""
    if not is_row_id(pk):
        return None
    alias = router.db_for_read(Article)
    sql, params, position, fields, converters = _gate_sql(alias)
    params = params[:position] + (pk,) + params[position + 1 :]
    # Straight through the cursor: a raw queryset cost more than the query.
    connection = connections[alias]
    row = prepared.fetch_one(connection, "newsroom_story_gate", sql, params)
    if row is None:
        return None
    values = list(row)
    for index, (functions, column) in converters.items():
        for convert in functions:
            values[index] = convert(values[index], column, connection)
    return Article.from_db(alias, fields, values)


class ArticleDetailView(DetailView):
    """One published article; any other slug redirects to the canonical address.

    Whether the story is public is read from the database on every request (one
    query by primary key); what it shows comes from cached fragments
    (publishing/fragments.py), rendered from its rows only when the story, or
    anything it shows, has changed, and put together into the page once for
    them all.
    """

    template_name = "articles/article_detail.html"
    context_object_name = "article"
    # Reads no query parameter: every query string is the same page to the cache.
    query_parameters = ()

    def get(self, request, *args, **kwargs):
        self.object = public_story(kwargs["pk"])
        if self.object is None:
            if Article.objects.filter(pk=kwargs["pk"], status=Status.KILLED).exists():
                # Gone for good, and nothing of it is shown, not even the headline.
                return render(request, "articles/article_killed.html", status=410)
            raise Http404
        if kwargs.get("slug") != (self.object.slug or "-"):
            return redirect(self.object.get_absolute_url(), permanent=True)
        # The page as put together for this story, this edition and this host:
        # rendered again only after a change, or when one of its parts expires.
        (content,) = generations.cached(
            fragments.page_part(self.object, request, self._put_together)
        )
        response = HttpResponse(content)
        # With the ETag, lets ConditionalGetMiddleware answer If-Modified-Since.
        response["Last-Modified"] = http_date(self.object.updated_at.timestamp())
        return response

    def _put_together(self) -> tuple[bytes, float]:
        """The page, from the story, its related stories and the menu (each from
        the cache when there, read together), and how long it may be kept: until
        the first of them expires, and not at all if it carries the request's CSP
        nonce (which only this request's header allows)."""
        request = self.request
        page = StoryPage(request, self.object)
        (story, story_until), (related_html, related_until), (menu, menu_until) = (
            generations.cached_until(
                fragments.story_part(self.object, request, partial(_rendered, page)),
                fragments.related_part(self.object, page.related_html),
                navigation_part(),
            )
        )
        context = self.get_context_data(
            object=self.object,
            navigation_html=menu,
            **page_context(story, related_html),
        )
        content = self.render_to_response(context).render().content
        nonce = getattr(request, "csp_nonce", None)
        if nonce is not None and nonce.used:
            return content, 0
        return content, min(story_until, related_until, menu_until) - time()


def _rendered(page: StoryPage) -> dict:
    # The story and its rows are read only here, when its fragments are rendered
    # (the gate has just found it public); the related stories, if they are
    # rendered too, reuse its tags and people.
    page.article = Article.objects.for_detail().get(pk=page.article.pk)
    return page.fragments()
