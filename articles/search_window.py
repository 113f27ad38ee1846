"""The newest matches of a search, found among the newest stories first.

A common word matches most of the archive; sorting every match to show the newest
ones grows with the archive (seconds at a million stories, and at 100,000 when the
desk sorts its search by another column). Both searches, the readers'
(publishing/search.py) and the desk's (the story changelist), look only at the newest
`window` matches, and find them in slices of dates: the last FIRST_SLICE_DAYS first;
then a slice sized by what the first found (as far back as `window` matches should
be at that rate, with a margin); then, past MAX_SLICE_DAYS or after a slice that
finds too few, the whole of what was asked. A slice holding `window` matches holds
the newest of all, since every story outside it is older.
"""

from collections.abc import Callable
from datetime import date, datetime, time, timedelta

from django.db import connections
from django.db.models import QuerySet
from django.utils import timezone

SEARCH_WINDOW = 1000
FIRST_SLICE_DAYS = 7
SLICE_MARGIN = 1.5
MAX_SLICE_DAYS = 3650
# How much further back to look after a slice without a single match.
EMPTY_SLICE_GROWTH = 16


def newest_window(
    matches: QuerySet,
    pick: Callable[..., list[int]],
    *,
    window: int = SEARCH_WINDOW,
    date_from: date | None = None,
    date_to: date | None = None,
    first_days: float = FIRST_SLICE_DAYS,
    max_days: float = MAX_SLICE_DAYS,
) -> list[int]:
    """The pks `pick(stories, by_index=...)` gives of the newest `window` of
    `matches` (stories with a publication date), looked for slice by slice.

    `pick` returns at most `window` pks of the stories it is given, newest first or
    in its own order; `by_index=False` asks it to sort the slice's rows rather than
    walk an index (see ArticleQuerySet.latest_first)."""
    until = timezone.now()
    if date_to:
        until = min(until, day_start(date_to + timedelta(days=1)))
    days = first_days
    while days <= max_days:
        since = until - timedelta(days=days)
        if date_from and since <= day_start(date_from):
            break  # the reader's dates bound the search more narrowly
        picked = pick(matches.filter(published_at__gte=since), by_index=False)
        if len(picked) >= window:
            return picked
        growth = window * SLICE_MARGIN / len(picked) if picked else EMPTY_SLICE_GROWTH
        days *= max(growth, 2)
    return pick(matches, by_index=True)


def day_start(day: date) -> datetime:
    """Midnight of `day` in the current time zone, as the `__date` lookups read it."""
    return timezone.make_aware(datetime.combine(day, time.min))


def desk_window(matches: QuerySet, window: int = SEARCH_WINDOW) -> list[int]:
    """The first `window` of `matches` in the desk's order (newest published first):
    stories without a publication date (drafts), newest first, where the database
    sorts them, before the published on PostgreSQL and after them on SQLite."""

    def drafts(wanted: int) -> list[int]:
        undated = matches.filter(published_at__isnull=True).order_by("-pk")
        return list(undated.values_list("pk", flat=True)[:wanted])

    def dated(wanted: int) -> list[int]:
        def newest(stories: QuerySet, by_index: bool) -> list[int]:
            order = stories.latest_first(by_index=by_index)
            return list(order.values_list("pk", flat=True)[:wanted])

        stories = matches.filter(published_at__isnull=False)
        return newest_window(stories, newest, window=wanted)

    first, then = drafts, dated
    if not connections[matches.db].features.nulls_order_largest:
        first, then = dated, drafts
    found = first(window)
    return found if len(found) >= window else found + then(window - len(found))
