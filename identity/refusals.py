"""Refusals by the identity gate are evidence: each is recorded, and a user refused
again and again has their saves of new text paused while identity officers look.

Every write that brings new public text passes a *door* (`write_door`, or `door` on
a service): the door is shut to a user whose saves are paused, and a refusal by the
gate inside it is recorded with the user, the door and the fields, never the name.

The record is written where it survives. A door records the refusal as the exception
leaves it, after the door's own transaction has rolled back, so what is written then
is not undone with the refused write (a service's `@transaction.atomic` sits inside
its door). Doors opened inside one another record once, at the outermost one (an
import saving its story records the import). A caller that runs a door inside a
transaction of its own and lets the refusal roll that back too (the admin's change
view) calls `refusal_kept` (or the refusal's `keep_record`) once it has caught it:
what the rollback undid is written again. The officers' e-mail goes after commit, so
it is sent once, with the record that survives.

The count and the pause are read from the audit trail itself (the user's refusals
since the hour began, or since their last pause), so they need no table of their own.
"""

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta
from functools import partial, wraps

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from audit.models import AuditEvent
from audit.services import audit_record
from core.roles import IDENTITY_OFFICERS

from .audit_actions import IdentityAction as Action
from .exposure import changed_fields, field_label
from .gate import IdentityLeakError
from .permissions import VIEW_LEGAL_NAME

logger = logging.getLogger(__name__)


class Door:
    """The write doors whose refusals are recorded (the audit message names one)."""

    STORY_SAVE = "story save"
    IMPORT = "import"
    PERSON_SAVE = "person save"
    TAG_SAVE = "tag save"
    TAG_MERGE = "tag merge"
    SECTION_SAVE = "section save"
    SOURCE_SAVE = "source save"
    IMAGE_SAVE = "image save"
    CORRECTION = "correction"
    USER_RENAME = "user rename"


class SavesPausedError(ValidationError):
    """The user's saves of new text (and imports) are paused after repeated refusals
    by the identity gate."""

    def __init__(self, until: datetime):
        self.until = until
        super().__init__(
            _(
                "Your saves of new text and your imports are paused until %(time)s: "
                "several of your recent changes were refused because they held the "
                "legal name of a protected person. The identity officers have been "
                "told; ask them if this is a mistake."
            )
            % {"time": date_format(timezone.localtime(until), "DATETIME_FORMAT")},
            code="saves_paused",
        )


def _limit() -> int:
    return settings.IDENTITY_REFUSAL_LIMIT


def _window() -> timedelta:
    return timedelta(minutes=settings.IDENTITY_REFUSAL_WINDOW_MINUTES)


def _pause() -> timedelta:
    return timedelta(minutes=settings.IDENTITY_PAUSE_MINUTES)


def _events_about(user: AbstractBaseUser):
    """The trail's events about `user` (read through the trail's object index)."""
    kind = ContentType.objects.get_for_model(get_user_model())
    return AuditEvent.objects.filter(content_type=kind, object_id=str(user.pk))


def saves_paused_until(user: AbstractBaseUser | None) -> datetime | None:
    """When `user`'s saves of new text resume, if they are paused now."""
    if user is None or not user.pk:
        return None
    now = timezone.now()
    started = (
        _events_about(user)
        .filter(action=Action.SAVES_PAUSED, at__gt=now - _pause())
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )
    return started + _pause() if started else None


def doors_open_check(user: AbstractBaseUser | None) -> None:
    """Raise SavesPausedError while `user`'s saves of new text are paused."""
    until = saves_paused_until(user)
    if until is not None:
        raise SavesPausedError(until)


def refusal_record(
    *, by: AbstractBaseUser | None, door: str, fields: Iterable[str]
) -> AuditEvent | None:
    """Record that the identity gate refused `by` at `door` in `fields` (labels such
    as "headline" or "byline: staff member", never the text), and pause the user's
    saves when the refusals add up. Call it outside the refused write's transaction.

    The writes have a savepoint of their own: one that fails is logged, and never
    takes the place of the refusal the user must see.
    """
    fields = list(dict.fromkeys(str(field) for field in fields))
    user = by if by is not None and by.pk else None
    try:
        with transaction.atomic():
            event = audit_record(
                by=by,
                action=Action.IDENTITY_REFUSED,
                obj=user,
                message=f"{door}: {', '.join(fields) or '-'}",
            )
            if user is not None:
                _pause_if_repeated(user)
            return event
    except DatabaseError:
        logger.exception("Could not record a refusal by the identity gate")
        return None


def _pause_if_repeated(user: AbstractBaseUser) -> None:
    """Pause `user`'s saves once their refusals since the hour began (or since their
    last pause) reach the limit, and tell the identity officers."""
    now = timezone.now()
    events = _events_about(user)
    last_pause = (
        events.filter(action=Action.SAVES_PAUSED)
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )
    if last_pause is not None and last_pause > now - _pause():
        return  # paused already
    since = max(filter(None, [now - _window(), last_pause]))
    refusals = events.filter(action=Action.IDENTITY_REFUSED, at__gt=since)
    count = refusals.count()
    if count < _limit():
        return
    until = now + _pause()
    doors = sorted(
        {m.split(":", 1)[0] for m in refusals.values_list("message", flat=True)}
    )
    audit_record(
        by=None,
        action=Action.SAVES_PAUSED,
        obj=user,
        message=(
            f"{count} refusals by the identity gate since "
            f"{timezone.localtime(since):%H:%M} ({', '.join(doors)}); saves of new "
            f"text and imports paused until {timezone.localtime(until):%Y-%m-%d %H:%M}"
        ),
    )
    username = user.get_username()
    transaction.on_commit(
        lambda: _tell_identity_officers(username, count, doors, until)
    )


def _tell_identity_officers(
    username: str, count: int, doors: list[str], until: datetime
) -> None:
    """E-mail the members of the Identity officers group; a mail server that fails
    leaves the audit event as the notice."""
    recipients = list(
        get_user_model()
        .objects.filter(groups__name=IDENTITY_OFFICERS, is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
        .distinct()
    )
    if not recipients:
        return
    subject = _("Saves paused for %(user)s after repeated identity refusals") % {
        "user": username
    }
    body = _(
        "The identity gate refused %(count)s changes by %(user)s within the hour "
        "(at: %(doors)s). Their saves of new text and their imports are paused "
        "until %(until)s. The audit trail lists each refusal with its door and "
        "fields; none of them repeats the name."
    ) % {
        "count": count,
        "user": username,
        "doors": ", ".join(doors),
        "until": date_format(timezone.localtime(until), "DATETIME_FORMAT"),
    }
    try:
        send_mail(subject, body, None, recipients)
    except Exception:  # the refused user's request must not fail over the mail
        logger.exception("Could not e-mail the identity officers about a pause")


# The door open in this context, if any: doors inside it neither check nor record.
_open_door: ContextVar[str | None] = ContextVar("open_door", default=None)


@contextmanager
def write_door(name: str, *, by: AbstractBaseUser | None) -> Iterator[None]:
    """Pass the write door `name`: shut while `by`'s saves are paused; a refusal by
    the identity gate inside is recorded as it leaves (see the module's notes)."""
    if _open_door.get() is not None:
        yield
        return
    token = _open_door.set(name)
    try:
        doors_open_check(by)
        yield
    except IdentityLeakError as found:
        refusal = concealed(found, by)
        refusal.refusal_door = (name, by)
        refusal.refusal_event = _record(refusal)
        # For a caller whose own rollback undoes the record (core.service_admin).
        refusal.keep_record = partial(refusal_kept, refusal)
        if refusal is found:
            raise
        raise refusal from None
    finally:
        _open_door.reset(token)


def concealed(refusal: IdentityLeakError, by) -> IdentityLeakError:
    """The refusal as `by` may read it. To a user who may not read legal names it
    names every field the save changes, not those holding the name (plus any
    holding it that the save leaves as it was, text the user did not type): were
    it to say which of several names typed into several fields is protected, a
    refusal would be an oracle. The audit trail, which editors read, records the
    same places."""
    if not refusal.names_places:
        return refusal
    if by is not None and by.is_active and by.has_perm(VIEW_LEGAL_NAME):
        return refusal
    changed = [(obj, field) for obj in refusal.checked for field in changed_fields(obj)]
    places = [field_label(obj, field) for obj, field in changed]
    typed = {(id(obj), field) for obj, field in changed}
    for leak in refusal.leaks:
        fields = leak.field.split("+")
        if not any((id(leak.obj), field) in typed for field in fields):
            places.append(leak.label)
    return IdentityLeakError(
        refusal.leaks, checked=refusal.checked, places=list(dict.fromkeys(places))
    )


def _record(refusal: IdentityLeakError) -> AuditEvent | None:
    name, by = refusal.refusal_door
    return refusal_record(by=by, door=name, fields=refusal.places)


def door(name: str) -> Callable:
    """Make a write service (called with `by=`) a door: see `write_door`. Put it
    above `@transaction.atomic`, so the refusal is recorded after the rollback."""

    def decorate(service: Callable) -> Callable:
        @wraps(service)
        def wrapper(*args, **kwargs):
            with write_door(name, by=kwargs.get("by")):
                return service(*args, **kwargs)

        wrapper.door = name
        return wrapper

    return decorate


def refusal_kept(refusal: ValidationError) -> None:
    """For a caller that caught a door's refusal after rolling back a transaction
    of its own around the door: write the record again if the rollback undid it."""
    event = getattr(refusal, "refusal_event", None)
    if event is None:
        return
    same = {"action": event.action, "message": event.message, "at": event.at}
    if AuditEvent.objects.filter(pk=event.pk, **same).exists():
        return
    refusal.refusal_event = _record(refusal)
