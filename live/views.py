"""What readers' browsers ask of a live coverage: the updates a page polls for,
older entries a page at a time, and the coverage's feed.

Polling, not server-sent events: a poll is an ordinary GET of one small response
per story and edition, so the page cache answers every unchanged one from memory
without the database (and ConditionalGetMiddleware answers it 304 on its ETag),
a CDN can too, and no worker is held open per reader. With gthread workers
(gunicorn.conf.py) an open event stream per reader would take a thread each:
thousands of readers of a breaking story would need thousands of threads.
"""

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from articles.models import Article
from core import generations
from core.text import cut_at_word
from edge.keys import key_of, mark
from publishing import fragments
from publishing.page_cache import reads_query
from publishing.views.story import public_story

from .models import LiveEntry
from .reading import live_feed, older_entries, poll_seconds


def _story(pk: int):
    article = public_story(pk)
    if article is None:
        raise Http404
    return article


def updates_data(request, article) -> dict:
    """What a reader's page needs to bring itself up to date: the coverage's state
    and its pinned and newest entries, rendered."""
    feed = live_feed(article)
    if not feed:
        raise Http404
    return {
        "state": feed.state,
        "stateHtml": render_to_string(
            "live/state.html", {"state": feed.state, "coverage": feed.coverage}
        ).strip(),
        "pinned": render_to_string(
            "live/entry_list.html", {"entries": feed.pinned}, request
        ),
        "entries": render_to_string(
            "live/entry_list.html", {"entries": feed.entries}, request
        ),
        "ids": [entry.pk for entry in feed.pinned + feed.entries],
        "olderThan": feed.older_than,
        "poll": poll_seconds(),
    }


@reads_query()
@require_GET
def updates(request, pk: int):
    """The poll: small JSON, kept in the cache under the story's modified time
    (which every entry's change moves), so a story's polls are rendered once per
    change. The page cache then answers it to every reader until the next change."""
    article = _story(pk)
    key = (
        f"live:updates:{article.pk}:{article.updated_at.timestamp()}:"
        f"{get_language() or settings.LANGUAGE_CODE}"
    )
    (data,) = generations.cached(
        generations.Fragment(
            key,
            fragments.GENERATION_KEY,
            lambda: (updates_data(request, article), fragments.FRAGMENT_SECONDS),
        )
    )
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    # A shared cache in front (a CDN) keeps a poll no longer than one interval.
    response.fresh_for = poll_seconds()
    return mark(response, {key_of(article)})


@reads_query("before")
@require_GET
def older(request, pk: int):
    """Older entries, a page at a time: a plain page (readers without JavaScript
    follow its link), which live.js reads the entries of."""
    article = _story(pk)
    try:
        pk = int(request.GET.get("before", ""))
        before = LiveEntry.objects.get(pk=pk, article=article)
    except (ValueError, LiveEntry.DoesNotExist):
        raise Http404 from None
    entries, older_than = older_entries(article, before)
    context = {"article": article, "entries": entries, "older_than": older_than}
    return mark(render(request, "live/older.html", context), {key_of(article)})


class LiveUpdatesFeed(Feed):
    """The coverage's entries as RSS, newest first."""

    def __call__(self, request, pk):
        return mark(super().__call__(request, pk=pk), {key_of(Article, pk)})

    def get_object(self, request, pk):
        _story(pk)  # public now, or no feed
        article = Article.objects.get(pk=pk)
        article.feed = live_feed(article)
        if not article.feed:
            raise Http404
        return article

    def title(self, obj) -> str:
        return obj.headline

    def link(self, obj) -> str:
        return obj.get_absolute_url()

    def description(self, obj) -> str:
        return self.title(obj)

    def items(self, obj) -> list[LiveEntry]:
        for entry in obj.feed.pinned + obj.feed.entries:
            entry.article = obj  # its address, without a query per entry
        return sorted(
            obj.feed.pinned + obj.feed.entries,
            key=lambda e: (e.posted_at, e.pk),
            reverse=True,
        )

    def item_title(self, item: LiveEntry) -> str:
        return item.headline or cut_at_word(item.text, 110)

    def item_description(self, item: LiveEntry) -> str:
        return item.html

    def item_link(self, item: LiveEntry) -> str:
        return f"{item.article.get_absolute_url()}#{item.anchor}"

    def item_pubdate(self, item: LiveEntry):
        return item.posted_at

    def item_updateddate(self, item: LiveEntry):
        return item.corrected_at or item.posted_at

    def item_author_name(self, item: LiveEntry) -> str:
        return item.author_name


live_updates_feed = reads_query()(LiveUpdatesFeed())
