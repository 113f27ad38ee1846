"""The ways out of the newsroom that `audit_identities` reads, by registration.

Public pages are read by walking the site; every other exit (the partners' API,
the webhook deliveries, the channels a later app adds) registers a reader here
from its app's `ready()`, so the audit finds what readers find on every exit
without knowing the apps that make them.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .gate import IdentityGate
    from .models import Person


@dataclass(frozen=True)
class Reading:
    """One thing an exit sends, read: where (an address or a record's name, never
    spelling a legal name), whose legal names it holds, and what becomes of it
    (`note`: "withheld", "its tombstone is sent instead")."""

    address: str
    people: list["Person"] = field(default_factory=list)
    note: str = ""
    # Whether the finding needs mending (the audit then fails), or is already
    # held back at the exit and only reported.
    mend: bool = True


Reader = Callable[["IdentityGate"], Iterator[Reading]]

_readers: dict[str, Reader] = {}


def register_exit(name: str, reader: Reader) -> Reader:
    """Have the audit read exit `name` ("API documents") with `reader(gate)`."""
    _readers[name] = reader
    return reader


def exits() -> dict[str, Reader]:
    """Every registered exit's reader, by name, in the order registered."""
    return dict(_readers)
