"""Who is making the current request, for audit records written where no request
is at hand (a password saved on the user model, whichever door it came through)."""

from contextvars import ContextVar

from django.contrib.auth.models import AbstractBaseUser

_actor: ContextVar[AbstractBaseUser | None] = ContextVar("audit_actor", default=None)


def current_actor() -> AbstractBaseUser | None:
    """The logged-in user of the request being served, or None (commands, anonymous)."""
    user = _actor.get()
    return user if user is not None and user.is_authenticated else None


class AuditActorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _actor.set(getattr(request, "user", None))
        try:
            return self.get_response(request)
        finally:
            _actor.reset(token)
