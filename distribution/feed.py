"""What a partner reads: the documents of the releases it may receive, page by
page from an opaque cursor, and one story's newest release (the documents are
built by distribution.documents, which webhook deliveries share).

The list walks the release log (`releases.visible_releases`: settled, the newest
release of each story and edition, in (visible_at, id) order) narrowed by the one
rule of what the partner may receive (`rules.receivable`). Each item carries the
story's present document: the full document while the story is public, else a
tombstone. A document the output check refuses (a protected legal name) is left
out of the list, and the cursor moves past it; it comes back with the release
that mends it.
"""

import base64
import binascii
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.contenttypes.models import ContentType
from django.db.models import Q, QuerySet
from django.utils import timezone
from taggit.models import Tag, TaggedItem

from articles.models import Article, Section
from core.pagination import EPOCH, BadCursor
from sources.models import Attribution, Source

from .documents import documents
from .models import Partner, Release
from .releases import settle, visible_releases
from .rules import receivable

PAGE_SIZE = 50
PAGE_SIZE_MAX = 100
# What a tombstone reads of its story.
_TOMBSTONE_FIELDS = ("article__status", "article__version", "article__updated_at")


@dataclass
class Item:
    release: Release
    document: dict


@dataclass
class Page:
    items: list[Item]
    # Where the next request starts: after the last release read (those skipped
    # as withheld included), or the cursor given when there was nothing new.
    cursor: str
    more: bool


def encode_cursor(release: Release) -> str:
    """An opaque cursor: the release's place in the sync order."""
    micros = (release.visible_at - EPOCH) // timedelta(microseconds=1)
    text = f"{micros}.{release.pk}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    """(visible_at, id) of a cursor we made; BadCursor for anything else."""
    if len(cursor) > 64:
        raise BadCursor(cursor)
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        micros, pk = (int(part) for part in text.split("."))
        return EPOCH + timedelta(microseconds=micros), pk
    except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError):
        raise BadCursor(cursor) from None


def partner_releases(
    partner: Partner,
    *,
    now: datetime | None = None,
    section: str = "",
    tag: str = "",
    source: str = "",
    language: str = "",
) -> QuerySet:
    """The releases `partner` sees now, in sync order, narrowed by the filters
    (slugs of a section, tag and source; an edition's language)."""
    # A deleted story's releases are for everyone: its rights can no longer be
    # read, and its tombstone holds nothing but its number and version.
    releases = visible_releases(now=now).filter(
        Q(article_id__in=receivable(partner).values("pk")) | Q(gone=True)
    )
    if language:
        releases = releases.filter(language=language)
    # Each filter is read as its row's id first (a small query), so the database
    # plans from the few stories a narrow section, tag or source has rather than
    # reading the whole log to find them.
    if section:
        ids = Section.objects.filter(slug=section).values_list("pk", flat=True)
        stories = Article.objects.filter(section_id__in=list(ids))
        releases = releases.filter(
            Q(article_id__in=stories.values("pk")) | Q(gone=True)
        )
    if tag:
        kind = ContentType.objects.get_for_model(Article)
        ids = Tag.objects.filter(slug=tag).values_list("pk", flat=True)
        tagged = TaggedItem.objects.filter(content_type=kind, tag_id__in=list(ids))
        releases = releases.filter(
            Q(article_id__in=tagged.values("object_id")) | Q(gone=True)
        )
    if source:
        ids = Source.objects.filter(slug=source).values_list("pk", flat=True)
        credits = Attribution.objects.filter(source_id__in=list(ids))
        releases = releases.filter(
            Q(article_id__in=credits.values("article_id")) | Q(gone=True)
        )
    return releases


def feed_page(
    partner: Partner,
    *,
    base_url: str,
    cursor: str = "",
    since: datetime | None = None,
    limit: int = PAGE_SIZE,
    now: datetime | None = None,
    **filters: str,
) -> Page:
    """One page of `partner`'s sync: the releases after `cursor` (or at or after
    `since`), with their documents. Raises BadCursor for a cursor we did not make.

    A fixed number of queries whatever the page's size and the stories' tags,
    people, posts and pictures.
    """
    releases = partner_releases(partner, now=now, **filters)
    if cursor:
        visible_at, pk = decode_cursor(cursor)
        releases = releases.filter(visible_at__gte=visible_at).exclude(
            visible_at=visible_at, pk__lte=pk
        )
    if since is not None:
        releases = releases.filter(visible_at__gte=since)
    rows = list(releases[: limit + 1])
    more, rows = len(rows) > limit, rows[:limit]
    made = documents(rows, base_url=base_url)
    # A withheld document is left out; the cursor still moves past it.
    items = [Item(row, made[row.pk]) for row in rows if made[row.pk] is not None]
    return Page(items, encode_cursor(rows[-1]) if rows else cursor, more)


def story_release(
    article_id: int, language: str, *, now: datetime | None = None
) -> Release | None:
    """The newest release partners see of a story's edition, or None."""
    cutoff = (now or timezone.now()) - settle()
    return (
        Release.objects.filter(
            article_id=article_id, language=language, visible_at__lte=cutoff
        )
        .select_related("article")
        .only("article_id", "language", "event", *_TOMBSTONE_FIELDS)
        .order_by("-visible_at", "-pk")
        .first()
    )


def gone_release(
    article_id: int, language: str, *, now: datetime | None = None
) -> Release | None:
    """The newest release partners see of a deleted story's edition, or None."""
    cutoff = (now or timezone.now()) - settle()
    return (
        Release.objects.filter(
            article_id=article_id, language=language, gone=True, visible_at__lte=cutoff
        )
        .order_by("-visible_at", "-pk")
        .first()
    )
