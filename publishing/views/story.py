"""The public article page: the gate every request passes, then the story's
fragments from the cache (rendered by publishing.views.story_page on a miss)."""

from functools import cache, partial
from time import time
from typing import NamedTuple

from django.db import connections, router
from django.db.models import BooleanField, ExpressionWrapper
from django.db.models.functions import Now
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import http_date
from django.views.generic import DetailView

from articles.models import Article, ArticleQuerySet, Status
from articles.models.queryset import readers_see
from core import generations
from core.ids import is_row_id
from edge.keys import key_of, mark

from .. import fragments
from ..navigation import navigation_fragment
from .story_page import StoryPage, page_context

# The column that says whether readers may see the story now.
SHOWN = "readers_may_see"


@cache
def _gate_rows() -> ArticleQuerySet:
    """for_gate() of any story, with whether readers may see it now (published()'s
    own rule, `readers_see`) as a column rather than a filter: a story looked up
    by its primary key alone is planned by PostgreSQL in a third of the time (the
    rule as a filter had it weigh the story table's indexes). Built once per process
    and never evaluated; "now" is the database's clock, so it holds for every
    request."""
    shown = ExpressionWrapper(readers_see(Now()), output_field=BooleanField())
    return Article.objects.for_gate().annotate(**{SHOWN: shown}).order_by()


class _Statement(NamedTuple):
    """The SQL Django ran for the gate, with the story's pk at `position` of
    `params`, and the fields of the columns it returns, in order."""

    sql: str
    params: tuple
    position: int
    fields: tuple[str, ...]


# Per database alias, filled by the first read of a story.
_statements: dict[str, _Statement] = {}


def public_story(pk: int) -> Article | None:
    """The story if readers may see it now, with the few columns of for_gate().

    The first read goes through the ORM, and the SQL it ran is kept (through
    connection.execute_wrapper(), Django's documented hook); the next ones run that
    SQL again through a cursor and build the story with Article.from_db(): building
    and compiling the queryset cost four times what running it did. Only on
    PostgreSQL, whose driver returns these columns as Django would (SQLite's
    datetimes need Django's converters): elsewhere every read is the ORM's.
    tests/publishing/test_gate.py compares the two.
    """
    if not is_row_id(pk):
        return None
    alias = router.db_for_read(Article)
    statement = _statements.get(alias)
    if statement is None:
        story = _read_and_keep(alias, pk)
        return story if story is not None and getattr(story, SHOWN) else None
    params = list(statement.params)
    params[statement.position] = pk
    with connections[alias].cursor() as cursor:
        cursor.execute(statement.sql, params)
        row = cursor.fetchone()
    if row is None or not row[-1]:  # the last column is SHOWN
        return None
    return Article.from_db(alias, statement.fields, row[:-1])


def _read_and_keep(alias: str, pk: int) -> Article | None:
    ran = []

    def keep(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        ran.append((sql, tuple(params), context["cursor"].description))
        return result

    connection = connections[alias]
    with connection.execute_wrapper(keep):
        story = next(iter(_gate_rows().using(alias).filter(pk=pk)), None)
    if connection.vendor == "postgresql" and len(ran) == 1:
        statement = _statement(*ran[0], pk=pk)
        if statement is not None:
            _statements[alias] = statement
    return story


def _statement(sql: str, params: tuple, description, *, pk: int) -> _Statement | None:
    """The statement to keep, or None when the pk's place or a column is unclear."""
    positions = [i for i, value in enumerate(params) if value == pk]
    fields = {field.column: field for field in Article._meta.concrete_fields}
    *column_names, shown = [column[0] for column in description or [("", "")]]
    columns = [fields.get(name) for name in column_names]
    if len(positions) != 1 or shown != SHOWN or not columns or None in columns:
        return None
    # A field that converts what the database returns needs the ORM.
    if any(hasattr(field, "from_db_value") for field in columns):
        return None
    names = tuple(field.attname for field in columns)
    return _Statement(sql, params, positions[0], names)


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
        ((content, keys),) = generations.cached(
            fragments.page_fragment(self.object, request, self._put_together)
        )
        response = mark(HttpResponse(content), keys)
        # With the ETag, lets ConditionalGetMiddleware answer If-Modified-Since.
        response["Last-Modified"] = http_date(self.object.updated_at.timestamp())
        return response

    def _put_together(self) -> tuple[tuple[bytes, frozenset[str]], float]:
        """The page, from the story, its related stories and the menu (each from
        the cache when there, read together), with the surrogate keys of what
        they show, and how long it may be kept: until the first of them expires,
        and not at all if it carries the request's CSP nonce (which only this
        request's header allows)."""
        request = self.request
        page = StoryPage(request, self.object)
        (story, story_until), (related, related_until), (menu, menu_until) = (
            generations.cached_until(
                fragments.story_fragment(
                    self.object, request, partial(_rendered, page)
                ),
                fragments.related_fragment(self.object, page.related_shown),
                navigation_fragment(),
            )
        )
        related_html, related_keys = related
        context = self.get_context_data(
            object=self.object,
            navigation_html=menu.html,
            **page_context(story, related_html),
        )
        content = self.render_to_response(context).render().content
        keys = frozenset({key_of(self.object), *related_keys, *menu.keys})
        nonce = getattr(request, "csp_nonce", None)
        if nonce is not None and nonce.used:
            return (content, keys), 0
        return (content, keys), min(story_until, related_until, menu_until) - time()


def _rendered(page: StoryPage) -> dict:
    # The story and its rows are read only here, when its fragments are rendered
    # (the gate has just found it public); the related stories, if they are
    # rendered too, reuse its tags and people.
    page.article = Article.objects.for_detail().get(pk=page.article.pk)
    return page.fragments()
