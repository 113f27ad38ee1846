"""The newsroom's domain events: what changed, said in the newsroom's words.

A service that changes what readers or partners may see sends its event itself,
next to its audit record, with `send_on_commit`: receivers hear of it only once the
change has committed, so a rolled-back change purges, indexes and releases nothing.
The audit trail records; these announce. Reads (a legal name viewed, a preview)
send nothing.

Every event is sent with `sender` the row's class and the keywords `instance` (the
row), `by` (the actor, None for background work), `action` (the audit verb recorded
with it) and `message` (the audit record's detail); a deleted row's event carries
its `pk` too, which the instance no longer holds.

Receivers live in their app's `receivers.py` and are connected in its
`AppConfig.ready()` with a dispatch_uid; one that cares about a kind of change
rather than one event connects to a declared group (`connect_group`), so an event
added to the group reaches it without a hand copy of the list.

A service that sends events says which with `@sends(...)`: the registry lets a test
call every such service and see its events leave after commit, and none on
rollback.
"""

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction
from django.dispatch import Signal

F = TypeVar("F", bound=Callable[..., Any])


class EventGroup:
    """A kind of change that some receivers care about as a whole."""

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.doc = doc
        self.events: list[DomainEvent] = []

    def __repr__(self) -> str:
        return f"<EventGroup {self.name}>"


class DomainEvent(Signal):
    """A named signal, in the groups its receivers know it by."""

    def __init__(self, name: str, *groups: EventGroup) -> None:
        super().__init__()
        self.name = name
        self.groups = groups
        for group in groups:
            group.events.append(self)
        _events[name] = self

    def __repr__(self) -> str:
        return f"<DomainEvent {self.name}>"


_events: dict[str, DomainEvent] = {}
_senders: dict[str, tuple[Callable[..., Any], tuple[DomainEvent, ...]]] = {}


# ------------------------------------------------------------ the groups

# Anything a reader or a partner may see: every cached page may show it (menus,
# lists, feeds, documents), so the page cache starts afresh.
PUBLIC = EventGroup("public", "anything readers or partners may see changed")
# A story's own row changed: it is read afresh (search vector, release log).
STORY = EventGroup("story", "a story's own row changed")
# A row stories show beside their own text (a section, tag, person, source,
# image...): every story's rendered fragments may hold it.
SHOWN_BY_STORIES = EventGroup("shown_by_stories", "a row stories show changed")


# ------------------------------------------------------------ the events

# Stories. `story_changed` is any save of its words and rows (created, changed,
# restored, imported, taken from the wire; `action` says which).
story_changed = DomainEvent("story_changed", PUBLIC, STORY)
story_embargo_changed = DomainEvent("story_embargo_changed", PUBLIC, STORY)
# Moves of the workflow that keep a story off the site (submitted, approved, sent
# back): the page cache has always started afresh on them too.
story_moved = DomainEvent("story_moved", PUBLIC, STORY)
# Published now or scheduled (`action` is "published" or "scheduled").
story_published = DomainEvent("story_published", PUBLIC, STORY)
story_unpublished = DomainEvent("story_unpublished", PUBLIC, STORY)
# Taken off the site to protect an identity (person_save with `withdraw`).
story_withdrawn = DomainEvent("story_withdrawn", PUBLIC, STORY)
story_killed = DomainEvent("story_killed", PUBLIC, STORY)
story_corrected = DomainEvent("story_corrected", PUBLIC, STORY)
story_deleted = DomainEvent("story_deleted", PUBLIC, STORY)

# Live coverage: the coverage's moves are the story's (`instance` is the story);
# an entry shows on its own story only, whose modified time it moves.
live_coverage_changed = DomainEvent("live_coverage_changed", PUBLIC, STORY)
live_entry_changed = DomainEvent("live_entry_changed", PUBLIC)

# What stories show beside their own text.
section_changed = DomainEvent("section_changed", PUBLIC, SHOWN_BY_STORIES)
tag_changed = DomainEvent("tag_changed", PUBLIC, SHOWN_BY_STORIES)
source_changed = DomainEvent("source_changed", PUBLIC, SHOWN_BY_STORIES)
person_changed = DomainEvent("person_changed", PUBLIC, SHOWN_BY_STORIES)
person_protected = DomainEvent("person_protected", PUBLIC, SHOWN_BY_STORIES)
image_changed = DomainEvent("image_changed", PUBLIC, SHOWN_BY_STORIES)
# Its renditions made (background work, `by` None): pages cached meanwhile show
# the original.
image_renditions_made = DomainEvent("image_renditions_made", PUBLIC, SHOWN_BY_STORIES)
# A staff member's name that bylines print.
byline_name_changed = DomainEvent("byline_name_changed", PUBLIC, SHOWN_BY_STORIES)
# Wire channels and the topic mapping show on no page; they are in the groups
# because every saved row purged the caches before these events, and narrowing
# that is a change of behaviour of its own.
wire_settings_changed = DomainEvent("wire_settings_changed", PUBLIC, SHOWN_BY_STORIES)


# Partners' webhooks: a delivery an editor sends again now (no public change).
delivery_replayed = DomainEvent("delivery_replayed")

# ------------------------------------------------------------ sending


def send_on_commit(
    event: DomainEvent,
    *,
    instance: Any,
    by: Any = None,
    action: str = "",
    message: str = "",
    **details: Any,
) -> None:
    """Send `event` about `instance` once the current transaction commits (at once
    outside one); dropped if it rolls back."""
    transaction.on_commit(
        lambda: event.send(
            sender=type(instance),
            instance=instance,
            by=by,
            action=action,
            message=message,
            **details,
        )
    )


def connect_group(
    group: EventGroup, receiver: Callable[..., Any], *, dispatch_uid: str
) -> None:
    """Connect `receiver` to every event of `group`."""
    for event in group.events:
        event.connect(receiver, dispatch_uid=f"{dispatch_uid}:{event.name}")


def sends(*events: DomainEvent) -> Callable[[F], F]:
    """Declare the events a service sends (one of them, depending on the change):
    the registry a test walks to prove each service sends after commit."""

    def decorator(service: F) -> F:
        _senders[f"{service.__module__}.{service.__qualname__}"] = (service, events)
        return service

    return decorator


def senders() -> dict[str, tuple[Callable[..., Any], tuple[DomainEvent, ...]]]:
    """Every service declared with `@sends`, by dotted name, with its events."""
    return dict(_senders)


def all_events() -> list[DomainEvent]:
    """Every domain event, in the order of declaration."""
    return list(_events.values())
