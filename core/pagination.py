"""Paging through lists of stories without counting them.

A reader going to older stories needs to know only whether there are any; counting
every published story on each page view (a `COUNT(*)` over the archive) is what makes
listings slow at the size of a real newsroom. Each page reads one row more than it
shows instead.

Listing pages go further (see "keyset pages" below): the links to older stories carry
a cursor, so even a page a thousand stories deep costs one indexed read.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property

from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator
from django.db import connections, models
from django.db.models import QuerySet
from django.db.models.lookups import GreaterThan, LessThan, Lookup

# Far past any archive; a larger number would make an offset the database cannot
# hold (PostgreSQL's bigint, SQLite's integer) and answer a server error.
MAX_PAGE = 100_000


class CountlessPage(Page):
    """A page that knows whether older stories follow, not how many pages there are."""

    def __init__(self, object_list, number, paginator, *, more: bool):
        super().__init__(object_list, number, paginator)
        self.more = more

    def has_next(self) -> bool:
        return self.more


class CountlessPaginator(Paginator):
    """A Paginator for "newer / older" navigation that never counts the list."""

    def validate_number(self, number) -> int:
        try:
            number = int(number)
        except (TypeError, ValueError):
            raise PageNotAnInteger(self.error_messages["invalid_page"]) from None
        if number < 1:
            raise EmptyPage(self.error_messages["min_page"])
        if number > MAX_PAGE:
            raise EmptyPage(self.error_messages["no_results"])
        return number

    def page(self, number) -> CountlessPage:
        number = self.validate_number(number)
        start = (number - 1) * self.per_page
        rows = list(self.object_list[start : start + self.per_page + 1])
        if not rows and number > 1:
            raise EmptyPage(self.error_messages["no_results"])
        more = len(rows) > self.per_page
        return CountlessPage(rows[: self.per_page], number, self, more=more)


class EstimatedCountPaginator(Paginator):
    """The admin's paginator: on PostgreSQL a list the planner expects to exceed
    ESTIMATE_ABOVE rows is numbered from that estimate instead of a COUNT(*), which
    reads every matching row (seconds at a million stories); shorter lists, and
    other databases, are counted exactly."""

    ESTIMATE_ABOVE = 1000

    @cached_property
    def count(self) -> int:
        queryset = self.object_list
        if (
            isinstance(queryset, QuerySet)
            and connections[queryset.db].vendor == "postgresql"
        ):
            estimate = _planned_rows(queryset)
            if estimate is not None and estimate > self.ESTIMATE_ABOVE:
                return estimate
        return super().count


def _planned_rows(queryset: QuerySet) -> int | None:
    """The planner's row estimate for `queryset`, or None when there is no plan.

    A queryset Django knows to be empty (a search that found nothing, a filter on
    an id no column can hold) is never sent to the database, so it explains to an
    empty string; the exact count of such a list costs no query either.
    """
    explained = queryset.order_by().explain(format="json")
    try:
        return int(json.loads(explained)[0]["Plan"]["Plan Rows"])
    except (ValueError, LookupError, TypeError):
        return None


# ---------------------------------------------------------------- keyset pages
#
# An offset page ("?page=250") makes the database walk past every newer story to
# reach it, so deep pages grow slower with the archive. A keyset page starts where
# the last one ended: "?before=<cursor>" asks for stories that sort after the last
# one shown, which an index on the sort keys finds directly, at any depth. The
# cursor is the last story's sort keys (breaking flag, publication time in
# microseconds since 1970, id), joined with dots: short, URL-safe, crawlable.

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MAX_CURSOR = 80


class BadCursor(ValueError):
    """A cursor that is not one this site made."""


def cursor_for(obj, keys: Sequence[str]) -> str:
    """The cursor of `obj` for an ordering on `keys` (field names, "-" for desc)."""
    parts = []
    for key in keys:
        value = getattr(obj, key.lstrip("-"))
        if isinstance(value, bool):
            parts.append("1" if value else "0")
        elif isinstance(value, datetime):
            parts.append(str((value - EPOCH) // timedelta(microseconds=1)))
        else:
            parts.append(str(int(value)))
    return ".".join(parts)


def _decode(model, keys: Sequence[str], cursor: str) -> tuple:
    parts = cursor.split(".")
    if len(cursor) > _MAX_CURSOR or len(parts) != len(keys):
        raise BadCursor(cursor)
    values = []
    for key, part in zip(keys, parts, strict=True):
        if not part.lstrip("-").isdigit():
            raise BadCursor(cursor)
        number = int(part)
        name = key.lstrip("-")
        field = model._meta.pk if name == "pk" else model._meta.get_field(name)
        if isinstance(field, models.BooleanField):
            if number not in (0, 1):
                raise BadCursor(cursor)
            values.append(bool(number))
        elif isinstance(field, models.DateTimeField):
            try:
                values.append(EPOCH + timedelta(microseconds=number))
            except OverflowError:
                raise BadCursor(cursor) from None
        else:
            values.append(number)
    return tuple(values)


@dataclass
class KeysetPage:
    """One page of a keyset-paged list, with the cursors of its neighbours.

    Offers what the list templates read of Django's Page (iteration, has_next,
    has_previous); there is no page number, since nothing is counted.
    """

    object_list: list
    keys: Sequence[str]
    more_older: bool
    more_newer: bool
    number: None = None

    def __iter__(self):
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)

    def has_next(self) -> bool:
        return self.more_older

    def has_previous(self) -> bool:
        return self.more_newer

    def has_other_pages(self) -> bool:
        return self.more_older or self.more_newer

    @property
    def older_cursor(self) -> str:
        return cursor_for(self.object_list[-1], self.keys) if self.object_list else ""

    @property
    def newer_cursor(self) -> str:
        return cursor_for(self.object_list[0], self.keys) if self.object_list else ""


def _sort_keys(keys: Sequence[str]) -> list[str]:
    if any(not key.startswith("-") for key in keys):
        raise ValueError("keyset pages read lists sorted newest first")
    return [key.lstrip("-") for key in keys]


class Row(models.Func):
    """A row value, `(a, b, c)`: compared whole, as SQL compares rows."""

    function = ""
    template = "(%(expressions)s)"
    output_field = models.Field()


def _beyond(names: Sequence[str], values: tuple, lookup: str) -> Lookup:
    """Rows whose keys compare to `values` as `lookup` ("lt" or "gt") in order.

    The row comparison (a, b, c) < (x, y, z), through Django's public expression
    API: PostgreSQL reads it as where the scan on the sort keys' index starts, so
    a deep page seeks to its cursor instead of reading every newer entry
    (tests/articles/test_indexes.py reads the plan). SQLite compares row values
    alike."""
    comparison = LessThan if lookup == "lt" else GreaterThan
    return comparison(
        Row(*[models.F(name) for name in names]),
        Row(*[models.Value(value) for value in values]),
    )


def older_than(queryset: QuerySet, keys: Sequence[str], cursor: str) -> QuerySet:
    """The rows of `queryset` (sorted by `keys`, all descending) after the cursor."""
    values = _decode(queryset.model, keys, cursor)
    names = _sort_keys(keys)
    return queryset.filter(_beyond(names, values, "lt")).order_by(*keys)


def newer_than(queryset: QuerySet, keys: Sequence[str], cursor: str) -> QuerySet:
    """The rows before the cursor, nearest first (the reverse of the list's order)."""
    values = _decode(queryset.model, keys, cursor)
    names = _sort_keys(keys)
    return queryset.filter(_beyond(names, values, "gt")).order_by(*names)


def keyset_page(
    queryset: QuerySet,
    keys: Sequence[str],
    *,
    per_page: int,
    before: str = "",
    after: str = "",
) -> KeysetPage:
    """The page of `queryset` (ordered by `keys`, all descending) older than the
    cursor `before`, newer than `after`, or the newest page when neither is given.

    Raises BadCursor for a cursor this site did not make.
    """
    _sort_keys(keys)
    if after:
        rows = list(newer_than(queryset, keys, after)[: per_page + 1])
        if len(rows) > per_page:
            return KeysetPage(rows[:per_page][::-1], keys, True, True)
        # Fewer than a page of newer stories: the reader is back at the top.
    elif before:
        rows = list(older_than(queryset, keys, before)[: per_page + 1])
        return KeysetPage(rows[:per_page], keys, len(rows) > per_page, True)
    rows = list(queryset.order_by(*keys)[: per_page + 1])
    return KeysetPage(rows[:per_page], keys, len(rows) > per_page, False)
