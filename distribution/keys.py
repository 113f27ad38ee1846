"""Partners' API keys: made at random, kept as a digest, checked in constant time.

A key reads `nk_<prefix>_<secret>`. The prefix (12 hex digits) is stored as it is:
it names the key in the admin and finds its row. The secret (32 random bytes,
URL-safe base64) is stored only as its SHA-256 digest. A password hash
(`make_password`) is made slow on purpose and would cost every API request tens
of milliseconds; a secret of 256 random bits needs no slowing down to be out of
reach of guessing, so one SHA-256 is enough.
"""

import hashlib
import hmac
import secrets

KEY_START = "nk_"
PREFIX_LENGTH = 12
# Two live keys let a partner move to a new one before the old is revoked.
LIVE_KEYS_MAX = 2


def new_key() -> tuple[str, str, str]:
    """A fresh key: (the full key to show once, its prefix, its secret's digest)."""
    prefix = secrets.token_hex(PREFIX_LENGTH // 2)
    secret = secrets.token_urlsafe(32)
    return f"{KEY_START}{prefix}_{secret}", prefix, digest_of(secret)


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def split_key(key: str) -> tuple[str, str] | None:
    """(prefix, secret) of a key as a partner sends it; None when it is not one."""
    if not key.startswith(KEY_START):
        return None
    rest = key[len(KEY_START) :]
    prefix, separator = rest[:PREFIX_LENGTH], rest[PREFIX_LENGTH : PREFIX_LENGTH + 1]
    secret = rest[PREFIX_LENGTH + 1 :]
    if separator != "_" or not secret or len(secret) > 100:
        return None
    return prefix, secret


def secret_matches(secret: str, digest: str) -> bool:
    """Whether `secret` is the one `digest` was made from (constant time)."""
    return hmac.compare_digest(digest_of(secret), digest)


def key_holder(key: str):
    """The live PartnerKey (its partner loaded) that `key` is, or None: one query,
    by prefix, then the secret compared in constant time."""
    from .models import PartnerKey

    parts = split_key(key.strip())
    if parts is None:
        return None
    prefix, secret = parts
    row = PartnerKey.objects.live().select_related("partner").filter(prefix=prefix)
    found = row.first()
    if found is None or not secret_matches(secret, found.digest):
        return None
    return found
