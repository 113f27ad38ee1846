"""The import's time budget (INGEST_TIME_BUDGET seconds): core.budget, with the
importer's default. A 2 MB paste on a busy machine can take long even though every
parser is linear; the import stops with a clear message when its time is up."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from core import budget
from core.budget import TimeBudgetSpent as ImportTooSlow
from core.budget import check_budget

__all__ = ["ImportTooSlow", "check_budget", "default_seconds", "time_budget"]


def default_seconds() -> float:
    return float(getattr(settings, "INGEST_TIME_BUDGET", 10))


@contextmanager
def time_budget(seconds: float | None = None) -> Iterator[None]:
    with budget.time_budget(default_seconds() if seconds is None else seconds):
        yield
