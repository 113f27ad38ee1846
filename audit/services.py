"""Writing to the audit trail; every editorial service calls `audit_record`, and
the deletion every service makes the same way (`row_delete`)."""

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import models

from core import events
from core.permissions import require_permission

from .actions import Action, is_registered
from .models import AuditEvent


def audit_record(
    *,
    by: AbstractBaseUser | None,
    action: str,
    obj: models.Model | None = None,
    message: str = "",
) -> AuditEvent:
    """Record that `by` did `action` to `obj`, inside the change's transaction.

    The trail records only: a service that changes what readers or partners see
    sends its domain event itself (core.events). An unregistered verb is refused:
    it would read as a bare code in the trail.
    """
    if not is_registered(action):
        raise ValueError(f"{action!r} is not a registered audit action.")
    event = AuditEvent(
        actor=by if by is not None and by.pk else None,
        actor_name=by.get_username() if by is not None else "",
        action=action,
        message=message,
    )
    if obj is not None:
        event.content_type = ContentType.objects.get_for_model(
            obj, for_concrete_model=False
        )
        event.object_id = str(obj.pk or "")
        event.object_repr = str(obj)[:300]
    event.save()
    return event


def row_delete(
    obj: models.Model,
    *,
    by: AbstractBaseUser,
    refusal: str,
    event: events.DomainEvent,
) -> None:
    """Delete a row, with permission, leaving its trace in the audit trail, and
    send `event` (action "deleted") after commit, with the row's `pk`: the
    instance has lost its own by then."""
    meta = obj._meta
    require_permission(by, f"{meta.app_label}.delete_{meta.model_name}", refusal)
    audit_record(by=by, action=Action.DELETED, obj=obj)
    events.send_on_commit(event, instance=obj, by=by, action=Action.DELETED, pk=obj.pk)
    obj.delete()
