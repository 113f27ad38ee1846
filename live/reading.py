"""What readers see of a live coverage: the entries a page shows, the older ones on
demand, and the updates a reader's page asks for.

Read apart from the story's other parts: a coverage runs to thousands of entries,
so a page reads its pinned entries and the newest PAGE_SIZE (a fixed number of
queries however many there are), and older ones a page at a time.
"""

import html
import re
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from articles.body import sanitize_html
from images.models import Image
from publishing.rendering import direction, field_language
from publishing.templatetags.news import news_date, script_lang

from .models import PAGE_SIZE, LiveCoverage, LiveEntry

_TAG_RE = re.compile(r"<[^>]*>")


def poll_seconds() -> int:
    """How often a reader's page asks for updates (LIVE_POLL_SECONDS, 10 by
    default): an unchanged answer costs a 304 from the cache."""
    return settings.LIVE_POLL_SECONDS


@dataclass
class LiveFeed:
    """A coverage as a page shows it: its state, pinned entries, then the newest
    (`entries`), and where the older ones begin (`older_than`, an entry's pk)."""

    article_id: int
    coverage: LiveCoverage | None
    pinned: list[LiveEntry] = field(default_factory=list)
    entries: list[LiveEntry] = field(default_factory=list)
    older_than: int | None = None
    # The story's posts placed in any entry (shown there, not after the body).
    post_ids: set[int] = field(default_factory=set)

    def __bool__(self) -> bool:
        return self.coverage is not None

    @property
    def state(self) -> str:
        return self.coverage.state if self.coverage else ""

    @property
    def is_running(self) -> bool:
        return bool(self.coverage) and self.coverage.is_running

    @property
    def poll_seconds(self) -> int:
        return poll_seconds()


def _entries():
    # Posts and pictures are few: read apart, only when some entry has one (an
    # empty prefetch costs no query), rather than joined onto every entry's row.
    return (
        LiveEntry.objects.select_related("author")
        .defer("author__password")
        .prefetch_related(
            "post", Prefetch("image", Image.objects.prefetch_related("renditions"))
        )
        .newest_first()
    )


def entry_body(entry: LiveEntry) -> SafeString:
    """The entry's text, sanitized again as the page prints it (rows written
    around the service never passed its save)."""
    return mark_safe(sanitize_html(entry.body or ""))  # nh3 kept only allowed markup


def plain_text(clean_html: str) -> str:
    """Sanitized HTML as plain text, for JSON-LD and feeds: nh3's output is
    well-formed, so dropping its tags leaves the text (escaped where it is used)."""
    return " ".join(html.unescape(_TAG_RE.sub(" ", clean_html)).split())


def _prepared(entries: list[LiveEntry]) -> list[LiveEntry]:
    """The entries with what their template prints worked out once each: a page
    shows fifty, so the date of each day is formatted once, not per entry."""
    dates: dict = {}
    for entry in entries:
        entry.html = entry_body(entry)
        entry.text = plain_text(entry.html)
        # Read in the edition being rendered: its language, or the one it falls
        # back to.
        entry.language = field_language(entry, "body" if entry.body else "headline")
        entry.direction = direction(entry.language)
        local = timezone.localtime(entry.posted_at)
        if local.date() not in dates:
            dates[local.date()] = news_date(local, True)
        entry.date_text = dates[local.date()]
        entry.time_text = local.strftime("%H:%M")
        entry.byline = entry.author_name
        entry.byline_language = script_lang(entry.byline)
    return entries


def live_feed(article) -> LiveFeed:
    """The coverage of `article` as its page shows it (an empty feed when it is not
    a live coverage): three or four queries, whatever the number of entries."""
    try:
        # Read with the story by for_detail() (the part's `selected`).
        coverage = article.live_coverage
    except LiveCoverage.DoesNotExist:
        coverage = None
    if coverage is None:
        return LiveFeed(article.pk, None)
    shown = _entries().filter(article_id=article.pk)
    pinned = list(shown.filter(is_pinned=True))
    # One more than a page, to know whether older entries remain.
    newest = list(shown.filter(is_pinned=False)[: PAGE_SIZE + 1])
    older_than = newest[PAGE_SIZE - 1].pk if len(newest) > PAGE_SIZE else None
    placed = shown.filter(post__isnull=False).values_list("post_id", flat=True)
    return LiveFeed(
        article.pk,
        coverage,
        _prepared(pinned),
        _prepared(newest[:PAGE_SIZE]),
        older_than,
        # Only when the story has posts at all: most coverages cost no query here.
        set(placed.order_by()) if _has_posts(article) else set(),
    )


def _has_posts(article) -> bool:
    cache = getattr(article, "_prefetched_objects_cache", {})
    if "social_posts" in cache:
        return bool(cache["social_posts"])
    return True


def placed_posts(feed: LiveFeed) -> dict[str, set[int]]:
    """The story's posts its entries show (the story part's `shows`)."""
    return {"social_posts": feed.post_ids}


def older_entries(article, before: LiveEntry) -> tuple[list[LiveEntry], int | None]:
    """The PAGE_SIZE entries (pinned ones included) posted before `before`, and
    where the next older page begins."""
    shown = _entries().filter(article_id=article.pk).exclude(pk=before.pk)
    older = shown.filter(posted_at__lt=before.posted_at) | shown.filter(
        posted_at=before.posted_at, pk__lt=before.pk
    )
    rows = list(older.newest_first()[: PAGE_SIZE + 1])
    next_from = rows[PAGE_SIZE - 1].pk if len(rows) > PAGE_SIZE else None
    return _prepared(rows[:PAGE_SIZE]), next_from
