"""The hook for side effects of editorial changes (cache purges, re-indexing).

Services announce each change with `announce`, which sends `content_changed` only
once the transaction commits, so a rolled-back change purges and indexes nothing.
"""

from django.db import models, transaction
from django.dispatch import Signal

# Sent after commit with sender=the model class, instance=the row, action=a verb
# registered in audit.actions.
content_changed = Signal()


def announce(obj: models.Model, action: str) -> None:
    """Send `content_changed` for `obj` when the current transaction commits."""
    transaction.on_commit(
        lambda: content_changed.send(sender=type(obj), instance=obj, action=action)
    )
