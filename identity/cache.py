"""Each process's gate for the protected people as they now stand.

The protected people's spellings are kept in each thread and reloaded when a
person changes (`identity_generation`, read with the other counters in the one
round trip a request makes to the cache), so reading a response for them costs no
query. The public output check (publishing.output_check) and the admin's redaction
(identity.redaction) both read responses with this gate.
"""

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable

from core import generations

from .gate import IdentityGate
from .models import Person

GENERATION_KEY = generations.register("identity:generation")
# Response bodies whose verdict each thread remembers.
VERDICTS_KEPT = 256


class _Gates(threading.local):
    """This thread's gate, with the generation it was loaded in, and what it found
    in the response bodies it read (the same bytes are read once: a page served
    uncached again and again is rendered alike each time)."""

    generation: int | None = None
    gate: IdentityGate | None = None
    verdicts: OrderedDict

    def __init__(self):
        self.verdicts = OrderedDict()


_gates = _Gates()


def identity_generation() -> int:
    """The generation of the protected people's spellings."""
    return generations.current(GENERATION_KEY)


def current_gate() -> IdentityGate:
    """The gate for the protected people as they now stand, loaded once per
    generation in each thread."""
    generation = identity_generation()
    if _gates.gate is None or _gates.generation != generation:
        _gates.gate = IdentityGate.load()
        _gates.generation = generation
        _gates.verdicts.clear()
    return _gates.gate


def forget_gate() -> None:
    """Drop this thread's gate: the next response loads it afresh."""
    _gates.gate = None
    _gates.verdicts.clear()


def people_in_body(
    gate: IdentityGate, body: bytes, charset: str, *, joined: bool = False
) -> list[Person]:
    """The protected people whose legal spellings `body` holds, read once for the
    same bytes under the same gate (see IdentityGate.people_in_output)."""
    digest = hashlib.sha256(body).digest() + (b"joined" if joined else b"")
    verdicts = _gates.verdicts
    if digest in verdicts:
        verdicts.move_to_end(digest)
        return verdicts[digest]
    people = gate.people_in_output(body.decode(charset, "replace"), joined=joined)
    verdicts[digest] = people
    if len(verdicts) > VERDICTS_KEPT:
        verdicts.popitem(last=False)
    return people


def people_in_sent(
    gate: IdentityGate, body: str, together: Iterable[str] = ()
) -> list[Person]:
    """The protected people whose legal spellings a body we send holds: the body
    as sent, and `together`, texts it keeps in fields of their own that the
    receiver prints side by side (a picture's caption and its credit); sent once
    per version, so read as the doors read it (romanizations joined)."""
    people = people_in_body(gate, body.encode(), "utf-8", joined=True)
    for text in together:
        if people:
            break
        people = people_in_body(gate, text.encode(), "utf-8", joined=True)
    return people


def people_changed(sender, instance: Person, **kwargs) -> None:
    """A person protected now, or protected in the gate this thread holds, may have
    changed spellings or protection: every process loads the gate again (this one
    at once, the others on their next request). Saving anyone else changes
    nothing the gate reads."""
    held = _gates.gate is not None and _gates.gate.holds(instance)
    if instance.identity_protected or held or _gates.gate is None:
        forget_gate()
        generations.advance(GENERATION_KEY)
