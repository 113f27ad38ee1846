"""Generation counters: how a whole family of cached entries is dropped at once.

Each cached page or fragment is stored *stamped* with the generation of its family
it was made in (and when it expires); advancing the counter makes every older entry
stale, on every server at once, without finding or deleting any of them.

A round trip to the cache costs more than rendering most fragments, so the counters
are read together with the entries a page needs, in one round trip (`cached`,
`fetch`), and at most once per request (`one_reading()`, opened by the page cache
middleware for every request); outside a request each read goes to the cache.
"""

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from time import time, time_ns
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


# ------------------------------------------------------- counters per surrogate key
#
# A page shows a few rows and lists (its surrogate keys, edge.keys); a change
# touches a few of them. Stamped with the counters of its own keys, a page is
# dropped only by a change to what it shows: a live entry every ten seconds no
# longer empties every page of the site.

_KEY_COUNTER = "generations:key:{}"


def key_stamps(
    keys: Iterable[str], *, family: str, begun: int
) -> dict[str, int] | None:
    """The counter of each key now (those never advanced, or evicted, started),
    read in one round trip with `family`'s generation: what an entry begun in
    generation `begun` of `family` is stamped with. None when that generation has
    moved since: a change committed while the entry was made, and its keys may
    not have moved yet."""
    names = {key: _KEY_COUNTER.format(key) for key in keys}
    found = cache.get_many([family, *names.values()])
    if found.get(family, 1) != begun:
        return None
    stamps = {}
    for key, name in names.items():
        value = found.get(name)
        if not value:
            value = _fresh()
            if not cache.add(name, value, None):
                value = cache.get(name) or value
        stamps[key] = value
    return stamps


def keys_unchanged(stamps: dict[str, int]) -> bool:
    """Whether no key of a page stamped with `stamps` has been advanced since (a
    counter the cache lost counts as advanced)."""
    names = {key: _KEY_COUNTER.format(key) for key in stamps}
    found = cache.get_many(names.values())
    return all(found.get(names[key]) == value for key, value in stamps.items())


def advance_keys(keys: Iterable[str]) -> None:
    """Drop every entry stamped with one of `keys`: each counter is given a value
    no entry was stamped with, in one round trip (set, not incremented: two
    servers advancing one key at once both leave it changed)."""
    value = _fresh()
    cache.set_many({_KEY_COUNTER.format(key): value for key in keys}, None)


_last_fresh = 0


def _fresh() -> int:
    # Microseconds since the epoch, rising in this process: above every value a
    # counter had before it was lost, and apart from every other advance but one
    # made on another server in the same microsecond.
    global _last_fresh
    _last_fresh = max(time_ns() // 1000, _last_fresh + 1)
    return _last_fresh
