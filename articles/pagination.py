"""Paging through lists of stories without counting them.

A reader going to older stories needs to know only whether there are any; counting
every published story on each page view (a `COUNT(*)` over the archive) is what makes
listings slow at the size of a real newsroom. Each page reads one row more than it
shows instead.
"""

from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator

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
