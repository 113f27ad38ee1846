"""The read side's subscribers: what readers are served is rendered afresh when
what it shows has changed. Connected in PublishingConfig.ready(); the editorial
apps send their domain events (core.events) and never import these."""

from typing import Any

from . import navigation
from .fragments import fragments_purge
from .page_cache import purge_pages


def pages_purge_on_change(sender, **kwargs: Any) -> None:
    """Receiver of the `PUBLIC` events: any committed change may show on any page
    (menus, lists, feeds)."""
    purge_pages()


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
