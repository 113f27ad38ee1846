"""Where purges go: one small interface, one backend chosen in settings.

`EDGE_PURGE_URLS` (the Varnish servers' addresses, comma-separated) alone turns
on the Varnish backend; `FASTLY_SERVICE_ID` with `FASTLY_API_TOKEN` Fastly's,
`CLOUDFLARE_ZONE_ID` with `CLOUDFLARE_API_TOKEN` Cloudflare's. Without any, no
edge is told anything, and pages carry their keys in `Surrogate-Key` for
whoever reads them.
"""

import json
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

    def __init__(self, urls: Iterable[str]):
        self.urls = list(urls)
        self.http = urllib3.PoolManager(timeout=_TIMEOUT, retries=False)

    def purge(self, keys: Iterable[str], *, hard: bool) -> None:
        name = "xkey-purge" if hard else "xkey-softpurge"
        for batch in _batches(sorted(set(keys))):
            for url in self.urls:
                _confirmed(
                    self.http, "PURGE", url.rstrip("/") + "/", headers={name: batch}
                )

    def __bool__(self) -> bool:
        return True


class _ApiBackend(EdgeBackend):
    """A CDN purged through its HTTP API, at `path` of the API's address, for the
    service or zone `scope`, with `token`."""

    path = ""

    def __init__(self, api: str, scope: str, token: str):
        self.url = api.rstrip("/") + self.path.format(scope=scope)
        self.token = token
        self.http = urllib3.PoolManager(timeout=_TIMEOUT, retries=False)

    def __bool__(self) -> bool:
        return True


class FastlyBackend(_ApiBackend):
    """Fastly: pages say their keys in `Surrogate-Key`; a purge is the API's batch
    purge by key (at most 256 keys a call), soft with `Fastly-Soft-Purge`."""

    header = "Surrogate-Key"
    path = "/service/{scope}/purge"
    per_call = 256

    def purge(self, keys: Iterable[str], *, hard: bool) -> None:
        for batch in _chunks(sorted(set(keys)), self.per_call):
            headers = {"Fastly-Key": self.token, "Surrogate-Key": " ".join(batch)}
            if not hard:
                headers["Fastly-Soft-Purge"] = "1"
            _confirmed(self.http, "POST", self.url, headers=headers)


class CloudflareBackend(_ApiBackend):
    """Cloudflare: pages say their keys in `Cache-Tag`, comma-separated; a purge
    is the zone's purge by tags (30 a call). Cloudflare has no soft purge: every
    purge is hard."""

    header = "Cache-Tag"
    path = "/client/v4/zones/{scope}/purge_cache"
    per_call = 30

    def written(self, keys: list[str]) -> str:
        return ",".join(keys)

    def purge(self, keys: Iterable[str], *, hard: bool) -> None:
        for batch in _chunks(sorted(set(keys)), self.per_call):
            _confirmed(
                self.http,
                "POST",
                self.url,
                headers={
                    "Authorization": f"Bearer {self.token}",
                    "Content-Type": "application/json",
                },
                body=json.dumps({"tags": batch}),
            )


def _confirmed(http: urllib3.PoolManager, method: str, url: str, **request) -> None:
    """Send one purge call; raise EdgePurgeError unless it answered 2xx."""
    try:
        answer = http.request(method, url, **request)
    except urllib3.exceptions.HTTPError as error:
        raise EdgePurgeError(f"{url}: {error}") from error
    if not 200 <= answer.status < 300:
        raise EdgePurgeError(f"{url} answered {answer.status}")


def _chunks(keys: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(keys), size):
        yield keys[start : start + size]


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


@lru_cache(maxsize=4)
def _backend_for(choice: tuple) -> EdgeBackend:
    kind, *arguments = choice
    backends = {
        "varnish": VarnishBackend,
        "fastly": FastlyBackend,
        "cloudflare": CloudflareBackend,
    }
    return backends[kind](*arguments) if kind else EdgeBackend()


def edge_backend() -> EdgeBackend:
    """The backend the settings choose (see the module's docstring)."""
    if settings.EDGE_PURGE_URLS:
        return _backend_for(("varnish", tuple(settings.EDGE_PURGE_URLS)))
    if settings.FASTLY_SERVICE_ID:
        return _backend_for(
            (
                "fastly",
                settings.FASTLY_API_URL,
                settings.FASTLY_SERVICE_ID,
                settings.FASTLY_API_TOKEN,
            )
        )
    if settings.CLOUDFLARE_ZONE_ID:
        return _backend_for(
            (
                "cloudflare",
                settings.CLOUDFLARE_API_URL,
                settings.CLOUDFLARE_ZONE_ID,
                settings.CLOUDFLARE_API_TOKEN,
            )
        )
    return _backend_for(("",))
