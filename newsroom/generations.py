"""Generation counters: how a whole family of cached entries is dropped at once.

Cached pages and fragments carry the current generation of their family in their
keys (or beside them); advancing the counter makes every older entry unreachable,
on every server at once, without finding or deleting any of them.

Every page reads its counters, and a round trip to the cache each costs more than
rendering most fragments. So the counters are read together, in one round trip, at
most once per request (`one_reading()`, opened by the page cache middleware for
every request); outside a request each read goes to the cache.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

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
