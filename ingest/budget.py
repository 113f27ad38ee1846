"""A time budget for one import, so a hostile paste cannot hold a worker.

Every parser is linear, but a 2 MB paste on a busy machine can still take long; the
import checks the clock between steps and stops with a clear message when its time
is up. The check is cooperative (no signals), so it works in threads and workers
alike.
"""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings

# (deadline on the monotonic clock, the budget's length in seconds)
_budget: ContextVar[tuple[float, float] | None] = ContextVar(
    "ingest_budget", default=None
)


class ImportTooSlow(Exception):
    """The import ran past its time budget."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"import ran past its {seconds:g} s budget")


def default_seconds() -> float:
    return float(getattr(settings, "INGEST_TIME_BUDGET", 10))


@contextmanager
def time_budget(seconds: float | None = None) -> Iterator[None]:
    """Run the block under a deadline; a nested budget never extends an outer one."""
    seconds = default_seconds() if seconds is None else seconds
    budget = (time.monotonic() + seconds, seconds)
    outer = _budget.get()
    token = _budget.set(budget if outer is None or budget < outer else outer)
    try:
        yield
    finally:
        _budget.reset(token)


def check_budget() -> None:
    """Raise ImportTooSlow when the current budget is spent; no-op outside one."""
    budget = _budget.get()
    if budget is not None and time.monotonic() > budget[0]:
        raise ImportTooSlow(budget[1])
