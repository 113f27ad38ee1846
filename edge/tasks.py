"""Purges tried again from the task queue: a purge the edge did not confirm at
commit is never dropped (a kill's least of all); each try that fails is logged
as an error, for the alerting that reads the logs."""

import logging
from datetime import timedelta

from django.utils import timezone
from django_tasks import task

from .backends import EdgePurgeError, edge_backend

logger = logging.getLogger(__name__)
# Seconds before each further try; then once a minute until the edge answers.
RETRY_DELAYS = (1, 5, 15, 30)
_RETRY_EVERY = 60


@task(queue_name="default")
def purge_again(keys: list[str], hard: bool, tries: int = 1) -> bool:
    """Try a purge once more; on failure put the next try on the queue."""
    try:
        edge_backend().purge(keys, hard=hard)
    except EdgePurgeError as error:
        logger.error(
            "The edge purge of %d keys failed (try %d): %s", len(keys), tries, error
        )
        _again(keys, hard, tries + 1)
        return False
    return True


def _again(keys: list[str], hard: bool, tries: int) -> None:
    backend = purge_again.get_backend()
    if not backend.supports_defer:
        # Run at once (development, tests): the next try is the sweep's; the
        # error above has said it.
        return
    delay = RETRY_DELAYS[tries - 2] if tries - 2 < len(RETRY_DELAYS) else _RETRY_EVERY
    purge_again.using(run_after=timezone.now() + timedelta(seconds=delay)).enqueue(
        keys, hard, tries
    )
