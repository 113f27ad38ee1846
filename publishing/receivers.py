"""The read side's subscribers: what readers are served is rendered afresh when
what it shows has changed. Connected in PublishingConfig.ready(); the editorial
apps send their domain events (core.events) and never import these."""

from typing import Any

from edge.purges import SHOWN_NOWHERE, keys_for

from . import navigation
from .fragments import fragments_purge
from .page_cache import purge_pages


def pages_purge_on_change(sender, signal=None, instance=None, **kwargs: Any) -> None:
    """Receiver of the `PUBLIC` events: the pages showing what the change touched
    are purged (edge.purges, the keys the edge is purged by too); a change said
    of no row, every page."""
    if signal in SHOWN_NOWHERE:
        return
    keys = None if instance is None else keys_for(instance, pk=kwargs.get("pk"))
    purge_pages(keys)


def fragments_purge_on_change(sender, **kwargs: Any) -> None:
    """Receiver of the `SHOWN_BY_STORIES` events: any story may show the row.

    A story's own change gives it a new version or modified time (a live entry
    moves its story's), which keys its fragments, so those events are not in the
    group: editing one story leaves every other story's fragments warm.
    """
    fragments_purge()


def menu_forget(sender, **kwargs: Any) -> None:
    """post_save and post_delete of a section: the menu shows the change at once,
    however the row was written."""
    navigation.forget_menu()
