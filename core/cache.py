"""A Redis cache that the site survives losing.

The cache only makes pages faster: if Redis is down, every read is a miss and every
write is dropped, so pages are rendered afresh instead of answering 500. After a
failure the cache is skipped for a few seconds rather than tried (and waited for)
on every call, then tried again.
"""

import logging
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# How long the cache is skipped after a failure before Redis is tried again.
RETRY_AFTER_SECONDS = 5.0


class TolerantRedisCacheClient(RedisCacheClient):
    """Django's Redis client, turning a Redis outage into misses and dropped writes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._down_until = 0.0
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        # Django builds a new redis.Redis around the pool on every call, which cost
        # 0.17 ms each (it copies ~170 response callbacks): nearly half of serving a
        # cached page. One client per pool is safe across threads (the pool is).
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def is_down(self) -> bool:
        """Whether Redis failed in the last few seconds (and is being skipped)."""
        return time.monotonic() < self._down_until

    def _guarded(self, operation, fallback, *args):
        if time.monotonic() < self._down_until:
            return fallback()
        try:
            return operation(*args)
        except RedisError as error:
            self._down_until = time.monotonic() + RETRY_AFTER_SECONDS
            logger.warning(
                "Cache unavailable (%s); serving without it for %.0f s.",
                type(error).__name__,
                RETRY_AFTER_SECONDS,
            )
            return fallback()

    def add(self, key, value, timeout):
        return self._guarded(super().add, lambda: False, key, value, timeout)

    def get(self, key, default):
        return self._guarded(super().get, lambda: default, key, default)

    def set(self, key, value, timeout):
        return self._guarded(super().set, lambda: None, key, value, timeout)

    def touch(self, key, timeout):
        return self._guarded(super().touch, lambda: False, key, timeout)

    def delete(self, key):
        return self._guarded(super().delete, lambda: False, key)

    def get_many(self, keys):
        return self._guarded(super().get_many, dict, keys)

    def has_key(self, key):
        return self._guarded(super().has_key, lambda: False, key)

    def incr(self, key, delta):
        # Callers already handle a missing key (ValueError); an outage is one.
        def missing():
            raise ValueError(f"Key '{key}' not found (cache unavailable).")

        return self._guarded(super().incr, missing, key, delta)

    def set_many(self, data, timeout):
        return self._guarded(super().set_many, lambda: None, data, timeout)

    def delete_many(self, keys):
        return self._guarded(super().delete_many, lambda: None, keys)

    def clear(self):
        return self._guarded(super().clear, lambda: False)

    def ping(self) -> bool:
        """Whether Redis answers now (for the health check; never skipped)."""
        try:
            return bool(self.get_client(write=True).ping())
        except RedisError:
            return False


class TolerantRedisCache(RedisCache):
    """The CACHES backend for production (see the module docstring)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = TolerantRedisCacheClient

    def ping(self) -> bool:
        return self._cache.ping()


def shared_cache_down(cache) -> bool:
    """Whether `cache` is a tolerant Redis cache that is failing now: what it holds
    is then not shared between workers (it holds nothing at all)."""
    client = getattr(cache, "_cache", None)
    return isinstance(client, TolerantRedisCacheClient) and client.is_down()
