"""A time budget for one piece of work, so hostile input cannot hold a worker.

Every loop whose length grows with the input checks the clock (`check_budget`) and
the work stops, with an exception its caller turns into a clear message, once the
time is up. The check is cooperative (no signals), so it works in threads and
workers alike, and it is a no-op outside a budget: a write service shared by the
importer and the admin checks it in its loops, and only the importer sets one.
"""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# (deadline on the monotonic clock, the budget's length in seconds)
_budget: ContextVar[tuple[float, float] | None] = ContextVar("budget", default=None)


class TimeBudgetSpent(Exception):
    """The work ran past its time budget."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"ran past its {seconds:g} s budget")


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Run the block under a deadline; a nested budget never extends an outer one."""
    budget = (time.monotonic() + seconds, seconds)
    outer = _budget.get()
    token = _budget.set(budget if outer is None or budget < outer else outer)
    try:
        yield
    finally:
        _budget.reset(token)


def check_budget() -> None:
    """Raise TimeBudgetSpent when the current budget is spent; no-op outside one."""
    budget = _budget.get()
    if budget is not None and time.monotonic() > budget[0]:
        raise TimeBudgetSpent(budget[1])
