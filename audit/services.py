"""Writing to the audit trail; every editorial service calls `audit_record`."""

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import models

from .actions import is_registered
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
