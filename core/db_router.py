"""Read replicas: anonymous readers' page reads go to the `replica` database.

Set DATABASE_REPLICA_URL (a PostgreSQL streaming replica of DATABASE_URL) and the
settings add a `replica` alias and this router. Only reads made while serving a
public page to an anonymous reader use it (ReplicaReadsMiddleware marks them); the
admin, editors' requests, previews, commands, every write and anything inside a
transaction stay on `default`, so editors always read what they just saved. A
replica a moment behind only delays a reader's page as much as the page cache does.
"""

from contextvars import ContextVar

from django.conf import settings
from django.db import connections

REPLICA = "replica"
_public_read: ContextVar[bool] = ContextVar("public_read", default=False)
# Paths that are never an anonymous reader's public page.
_PRIVATE = ("/admin/", "/i18n/")


class ReplicaRouter:
    """Sends public reads to the replica when one is configured (see module doc)."""

    def db_for_read(self, model, **hints):
        if (
            _public_read.get()
            and REPLICA in settings.DATABASES
            and not connections["default"].in_atomic_block
        ):
            return REPLICA
        return "default"

    def db_for_write(self, model, **hints):
        return "default"

    def allow_relation(self, obj1, obj2, **hints):
        # The replica holds the same rows as the primary.
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == "default"


def is_public_read(request) -> bool:
    """An anonymous reader's GET of a public page (never the admin or a preview)."""
    if request.method not in ("GET", "HEAD"):
        return False
    path = request.path
    if path.startswith(_PRIVATE) or "/preview/" in path:
        return False
    # Without a session cookie nobody is logged in: answered without loading the
    # (empty) session and the anonymous user for every reader's page.
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return True
    user = getattr(request, "user", None)
    return not (user is not None and user.is_authenticated)


class ReplicaReadsMiddleware:
    """Marks the reads of a public request as replica reads (after authentication)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_public_read(request):
            return self.get_response(request)
        token = _public_read.set(True)
        try:
            return self.get_response(request)
        finally:
            _public_read.reset(token)
