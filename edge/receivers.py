"""The edge's subscriber to the newsroom's events (core.events): connected to the
`PUBLIC` group in EdgeConfig.ready(), it hears each change once committed."""

import logging
from typing import Any

from .backends import EdgePurgeError, edge_backend
from .purges import HARD, SHOWN_NOWHERE, keys_for
from .tasks import purge_again

logger = logging.getLogger(__name__)


def edge_purge_on_change(sender, signal=None, instance=None, **kwargs: Any) -> None:
    """Purge the keys the change touched, at once; what the edge does not confirm
    goes to the task queue to be tried again."""
    backend = edge_backend()
    if not backend or instance is None or signal in SHOWN_NOWHERE:
        return
    keys = sorted(keys_for(instance, pk=kwargs.get("pk")))
    hard = signal in HARD
    try:
        backend.purge(keys, hard=hard)
    except EdgePurgeError as error:
        logger.error("The edge did not purge %s: %s; tried again", keys[:5], error)
        purge_again.enqueue(keys, hard, 2)
