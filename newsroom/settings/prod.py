"""Production: refuses to start half-configured (see docs/operations.md, "Production").

Every required variable is checked here, at import, so a misconfigured container
fails at start with the variable's name instead of serving errors later.
"""

import os
import socket
from urllib.parse import parse_qs, urlsplit

from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

from articles import permissions as perms

from .base import *  # noqa: F403
from .base import env_list, tasks_for
from .https import https_profile


def _strong_secret_key(key: str) -> bool:
    # Django's own strength rule, the one `check --deploy` applies (security.W009),
    # from its public limits; Django's function for it is private.
    return (
        len(set(key)) >= SECRET_KEY_MIN_UNIQUE_CHARACTERS
        and len(key) >= SECRET_KEY_MIN_LENGTH
        and not key.startswith(SECRET_KEY_INSECURE_PREFIX)
    )


def redis_database(name: str, url: str) -> set[tuple]:
    """The Redis databases `url` (the variable `name`) can reach: (address, port,
    database) for each address its host resolves to, so that "localhost" and
    "127.0.0.1/1/" are seen to be the same database."""
    parts = urlsplit(url)
    try:
        # A unix:// address's path is the socket's; the database is then ?db=.
        in_path = "0" if parts.scheme == "unix" else parts.path.strip("/") or "0"
        database = int(parse_qs(parts.query).get("db", [in_path])[0])
        port = parts.port or 6379
    except ValueError:
        raise ImproperlyConfigured(
            f"{name} is not a Redis address with a port and database number "
            "(redis://host:6379/1)."
        ) from None
    if parts.scheme == "unix":
        return {(os.path.realpath(parts.path), 0, database)}
    host = parts.hostname or "localhost"
    try:
        found = {info[4][0] for info in socket.getaddrinfo(host, port)}
    except OSError:  # not resolvable here (yet): compare the names
        found = {host.lower()}
    return {(address, port, database) for address in found}


def _required(name: str, why: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"{name} must be set in production: {why}")
    return value


DEBUG = False

SECRET_KEY = _required("SECRET_KEY", "a random value of at least 50 characters.")
if not _strong_secret_key(SECRET_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak for production: use at least 50 characters, at "
        "least 5 of them different, not starting with 'django-insecure' (for "
        "example: python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )

_required("ALLOWED_HOSTS", "the site's host names, comma-separated.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if not ALLOWED_HOSTS or "*" in ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must name the site's hosts; '*' would let any Host header "
        "into absolute links."
    )

# The address webhook deliveries' documents are under: SITE_URL, else the first
# host over HTTPS.
SITE_URL = os.environ.get("SITE_URL") or f"https://{ALLOWED_HOSTS[0].lstrip('.')}/"

_required("DATABASE_URL", "e.g. postgres://user:password@host:5432/newsroom.")

CACHE_URL = _required(
    "CACHE_URL",
    "a Redis address (redis://host:6379/1) shared by every worker.",
)
if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(
        "CACHE_URL must be a Redis address (redis://, rediss:// or unix://): with "
        "a per-process cache a purge reaches one worker only and readers see "
        "stale pages."
    )

# Background work (renditions) runs on RQ workers (`manage.py rqworker default
# renditions`, docker-compose's `worker`); without them uploads would wait for it.
# Its own Redis database: a cache's clear() empties the whole database it is in.
TASKS_URL = _required(
    "TASKS_URL",
    "a Redis address for the task queue (redis://host:6379/2), another database "
    "than CACHE_URL's.",
)
if not TASKS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(
        "TASKS_URL must be a Redis address (redis://, rediss:// or unix://): the "
        "workers on every machine take their jobs from it."
    )
if redis_database("TASKS_URL", TASKS_URL) & redis_database("CACHE_URL", CACHE_URL):
    raise ImproperlyConfigured(
        "TASKS_URL must name another Redis database than CACHE_URL (e.g. "
        "redis://host:6379/2): clearing the cache would drop queued jobs."
    )
TASKS, RQ_QUEUES = tasks_for(TASKS_URL)

# Uploaded media. Django does not serve MEDIA_ROOT when DEBUG is off, so something
# else must, or every uploaded image answers 404: `nginx` (docker-compose's web
# server serves /media/ from the shared volume; deploy/nginx.conf), or `external`
# with an absolute MEDIA_URL of the server or bucket that holds the files.
MEDIA_SERVED_BY = os.environ.get("MEDIA_SERVED_BY", "")
if MEDIA_SERVED_BY == "external":
    MEDIA_URL = os.environ.get("MEDIA_URL", "")
    if not MEDIA_URL.startswith(("https://", "http://")) or not MEDIA_URL.endswith("/"):
        raise ImproperlyConfigured(
            "MEDIA_SERVED_BY=external needs MEDIA_URL, the absolute address (ending "
            "in /) where uploaded media is served, e.g. https://media.example.com/."
        )
elif MEDIA_SERVED_BY != "nginx":
    raise ImproperlyConfigured(
        "MEDIA_SERVED_BY must say who serves uploaded images, or every one answers "
        "404: 'nginx' (the web server in docker-compose.yml serves /media/) or "
        "'external' (with MEDIA_URL=https://...)."
    )

globals().update(https_profile())

# Logs as one JSON object a line, each with the request id (core/logs.py).
LOGGING["handlers"]["console"]["formatter"] = "json"  # noqa: F405

# Errors go to Sentry when a DSN is given. Reports must not carry what a frame or a
# form held (a protected person's legal name, a source's message): no local
# variables, no request bodies, no user details.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    from core.logs import OutageEvents

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration()],
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        release=os.environ.get("SENTRY_RELEASE") or None,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        # A database outage fails every request alike: one event per interval.
        before_send=OutageEvents(float(os.environ.get("LOG_OUTAGE_SECONDS", "30"))),
    )

# Everyone who can publish, read legal names, make the server fetch or send, or
# hand out keys signs in with a second factor.
OTP_REQUIRED_FOR_PERMISSIONS = list(perms.SECOND_FACTOR)
