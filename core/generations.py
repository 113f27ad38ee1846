"""Generation counters: how a whole family of cached entries is dropped at once.

Each cached page or fragment is stored *stamped* with the generation of its family
it was made in (and when it expires); advancing the counter makes every older entry
stale, on every server at once, without finding or deleting any of them.

A round trip to the cache costs more than rendering most fragments, so the counters
are read together with the entries a page needs, in one round trip (`cached`,
`fetch`), and at most once per request (`one_reading()`, opened by the page cache
middleware for every request); outside a request each read goes to the cache.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from time import time
from typing import Any

from django.core.cache import cache

# Every counter the site keeps; read together, since a page needs most of them.
KEYS: list[str] = []

_read: ContextVar[dict[str, int] | None] = ContextVar("generations", default=None)


def register(key: str) -> str:
    """Declare a counter (at import), so it is read with the others."""
    if key not in KEYS:
        KEYS.append(key)
    return key


def current(key: str) -> int:
    """The counter's value, as first read in this request."""
    read = _read.get()
    if read is not None and key in read:
        return read[key]
    values = _fetch()
    if read is not None:
        read.update(values)
    return values[key]


def remember(values: dict[str, int]) -> None:
    """Counters a caller read from the cache itself, with what it came to fetch."""
    read = _read.get()
    if read is not None:
        read.update(
            {key: value for key, value in values.items() if key in KEYS and value}
        )


def advance(key: str) -> None:
    """Start a new generation: every entry of the older ones is dropped."""
    try:
        value = cache.incr(key)
    except ValueError:  # no counter yet, or it was evicted
        value = 2
        cache.set(key, value, None)
    read = _read.get()
    if read is not None:
        read[key] = value


@contextmanager
def one_reading() -> Iterator[None]:
    """Within this block (a request), each counter is read from the cache once."""
    token = _read.set({})
    try:
        yield
    finally:
        _read.reset(token)


def _fetch() -> dict[str, int]:
    found = cache.get_many(KEYS)
    missing = {key: 1 for key in KEYS if not found.get(key)}
    for key in missing:
        # add(), not set(): another server may have started the counter meanwhile.
        if not cache.add(key, 1, None):
            missing[key] = cache.get(key) or 1
    return {**found, **missing}


# ------------------------------------------------------------ stamped entries


def stamp(
    family: str, value: Any, seconds: float, *, generation: int | None = None
) -> tuple[int, float, Any]:
    """`value` as it is stored: with its family's generation (the current one, or
    the one it was begun in) and its expiry."""
    if generation is None:
        generation = current(family)
    return (generation, time() + seconds, value)


def unstamp(entry: tuple[int, float, Any] | None, family: str) -> Any | None:
    """The value of a stored entry, or None when it is missing or stale."""
    if entry is None:
        return None
    generation, expires_at, value = entry
    if generation != current(family) or expires_at <= time():
        return None
    return value


def fetch(keys: list[str]) -> dict[str, Any]:
    """The entries stored under `keys`, read with every counter in one round trip."""
    found = cache.get_many([*KEYS, *keys])
    remember(found)
    return {key: found[key] for key in keys if key in found}


@dataclass(frozen=True)
class Fragment:
    """One cached fragment of a page: where it is kept, which family's purge drops it,
    and how it is made when missing, as (value, seconds to keep it)."""

    key: str
    family: str
    render: Callable[[], tuple[Any, float]]


def cached(*fragments: Fragment) -> list[Any]:
    """Each fragment's value: read together in one round trip, and those missing
    or stale rendered (in the order given) and stored."""
    return [value for value, _expires_at in cached_until(*fragments)]


def cached_until(*fragments: Fragment) -> list[tuple[Any, float]]:
    """Each fragment's value as `cached()` gives it, with when (time()) it expires:
    what is made from several fragments lives no longer than the first of them. A
    fragment rendered for 0 seconds or less is given but not stored."""
    found = fetch([fragment.key for fragment in fragments])
    values = []
    for fragment in fragments:
        entry = found.get(fragment.key)
        value = unstamp(entry, fragment.family)
        if value is None:
            value, seconds = fragment.render()
            entry = stamp(fragment.family, value, seconds)
            if seconds > 0:
                cache.set(fragment.key, entry, int(seconds) + 1)
        values.append((value, entry[1]))
    return values
