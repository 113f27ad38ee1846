"""Where purges go: one small interface, one backend chosen in settings.

`EDGE_PURGE_URLS` (the Varnish servers' addresses, comma-separated) alone turns
on the Varnish backend; without it no edge is told anything, and pages carry
their keys in `Surrogate-Key` for whoever reads them.
"""

from collections.abc import Iterable, Iterator
from functools import lru_cache

import urllib3
from django.conf import settings

# A purge is a loopback or LAN call: a server that does not answer at once is
# down, and the purge is tried again from the task queue.
_TIMEOUT = urllib3.Timeout(connect=1.0, read=3.0)
# Keys per request: headers stay far below Varnish's 8 KB limit.
_HEADER_CHARS = 4000


class EdgePurgeError(Exception):
    """An edge server did not confirm a purge."""


class EdgeBackend:
    """No edge: pages say their keys, nothing is purged."""

    header = "Surrogate-Key"

    def written(self, keys: list[str]) -> str:
        """`keys` as this edge reads them in `header`."""
        return " ".join(keys)

    def purge(self, keys: Iterable[str], *, hard: bool) -> None:
        """Drop (`hard`) or mark stale every page carrying one of `keys`; raise
        EdgePurgeError unless every server confirmed."""

    def __bool__(self) -> bool:
        return False


class VarnishBackend(EdgeBackend):
    """Varnish with the xkey module (deploy/varnish/default.vcl): a PURGE request
    to each server, the keys in `xkey-purge` (gone at once) or `xkey-softpurge`
    (served stale while fetched again)."""

    header = "xkey"

    def __init__(self, urls: list[str]):
        self.urls = urls
        self.http = urllib3.PoolManager(timeout=_TIMEOUT, retries=False)

    def purge(self, keys: Iterable[str], *, hard: bool) -> None:
        name = "xkey-purge" if hard else "xkey-softpurge"
        for batch in _batches(sorted(set(keys))):
            for url in self.urls:
                try:
                    answer = self.http.request(
                        "PURGE", url.rstrip("/") + "/", headers={name: batch}
                    )
                except urllib3.exceptions.HTTPError as error:
                    raise EdgePurgeError(f"{url}: {error}") from error
                if answer.status != 200:
                    raise EdgePurgeError(f"{url} answered {answer.status}")

    def __bool__(self) -> bool:
        return True


def _batches(keys: list[str]) -> Iterator[str]:
    batch: list[str] = []
    size = 0
    for key in keys:
        if batch and size + len(key) + 1 > _HEADER_CHARS:
            yield " ".join(batch)
            batch, size = [], 0
        batch.append(key)
        size += len(key) + 1
    if batch:
        yield " ".join(batch)


@lru_cache(maxsize=1)
def _backend_for(urls: tuple[str, ...]) -> EdgeBackend:
    return VarnishBackend(list(urls)) if urls else EdgeBackend()


def edge_backend() -> EdgeBackend:
    """The backend the settings choose (EDGE_PURGE_URLS)."""
    return _backend_for(tuple(settings.EDGE_PURGE_URLS))
