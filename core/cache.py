"""A Redis cache that the site survives losing.

The cache only makes pages faster: if Redis is down, every read is a miss and every
write is dropped, so pages are rendered afresh instead of answering 500. After a
failure the cache is skipped for a few seconds rather than tried (and waited for)
on every call, then tried again.

Built on django-redis, which keeps one Redis client per server (Django's own
backend built one on every call, 0.17 ms each: nearly half of serving a cached
page). Its IGNORE_EXCEPTIONS is left off: it would answer None where Django's API
promises False (`add`) or a ValueError (`incr`), and would try Redis, and wait for
it, on every call of an outage.
"""

import logging
import time

from django_redis.cache import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# How long the cache is skipped after a failure before Redis is tried again.
RETRY_AFTER_SECONDS = 5.0


def _missing(key, *args, **kwargs):
    # Callers already handle a missing key (ValueError); an outage is one.
    raise ValueError(f"Key '{key}' not found (cache unavailable).")


class TolerantRedisCache(RedisCache):
    """The CACHES backend for production (see the module docstring)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self.down_until = 0.0

    def is_down(self) -> bool:
        """Whether Redis failed in the last few seconds (and is being skipped)."""
        return time.monotonic() < self.down_until

    def guarded(self, operation, fallback, *args, **kwargs):
        """`operation(*args, **kwargs)`, or `fallback(*args, **kwargs)` while Redis
        is down or when it fails now."""
        if self.is_down():
            return fallback(*args, **kwargs)
        try:
            return operation(*args, **kwargs)
        except RedisError as error:
            self.down_until = time.monotonic() + RETRY_AFTER_SECONDS
            logger.warning(
                "Cache unavailable (%s); serving without it for %.0f s.",
                type(error).__name__,
                RETRY_AFTER_SECONDS,
            )
            return fallback(*args, **kwargs)

    def add(self, *args, **kwargs):
        return self.guarded(super().add, lambda *a, **k: False, *args, **kwargs)

    def get(self, key, default=None, version=None, client=None):
        return self.guarded(
            super().get, lambda *a, **k: default, key, default, version, client
        )

    def set(self, *args, **kwargs):
        return self.guarded(super().set, lambda *a, **k: None, *args, **kwargs)

    def touch(self, *args, **kwargs):
        return self.guarded(super().touch, lambda *a, **k: False, *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self.guarded(super().delete, lambda *a, **k: False, *args, **kwargs)

    def get_many(self, *args, **kwargs):
        return self.guarded(super().get_many, lambda *a, **k: {}, *args, **kwargs)

    def has_key(self, *args, **kwargs):
        return self.guarded(super().has_key, lambda *a, **k: False, *args, **kwargs)

    def incr(self, *args, **kwargs):
        return self.guarded(super().incr, _missing, *args, **kwargs)

    def decr(self, *args, **kwargs):
        return self.guarded(super().decr, _missing, *args, **kwargs)

    def set_many(self, *args, **kwargs):
        return self.guarded(super().set_many, lambda *a, **k: None, *args, **kwargs)

    def delete_many(self, *args, **kwargs):
        return self.guarded(super().delete_many, lambda *a, **k: None, *args, **kwargs)

    def clear(self):
        return self.guarded(super().clear, lambda: False)

    def ping(self) -> bool:
        """Whether Redis answers now (for the health check; never skipped)."""
        try:
            return bool(self.client.get_client(write=True).ping())
        except RedisError:
            return False


def shared_cache_down(cache) -> bool:
    """Whether `cache` is a tolerant Redis cache that is failing now: what it holds
    is then not shared between workers (it holds nothing at all)."""
    # `cache` is often django.core.cache.cache, a proxy to the backend: asked, not
    # checked with isinstance().
    is_down = getattr(cache, "is_down", None)
    return is_down is not None and is_down()
