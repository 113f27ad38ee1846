"""Who else has a story open: the change form says so, so two editors know before
they both rewrite the same paragraph. Kept in the cache (shared by the workers when
CACHE_URL points at Redis); it is a courtesy, the version check is the safeguard."""

import time

from django.core.cache import cache

PRESENCE_SECONDS = 5 * 60


def presence_touch(article_id: int, user) -> list[str]:
    """Note that `user` has the story open; the names of the others who opened it
    within the last few minutes."""
    key = f"presence:article:{article_id}"
    now = time.time()
    seen = {
        user_id: (name, at)
        for user_id, (name, at) in (cache.get(key) or {}).items()
        if now - at < PRESENCE_SECONDS
    }
    others = sorted(name for user_id, (name, _at) in seen.items() if user_id != user.pk)
    seen[user.pk] = (user.get_full_name() or user.get_username(), now)
    cache.set(key, seen, PRESENCE_SECONDS)
    return others
