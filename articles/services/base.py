"""What every service shares: the permission check, the audit action names,
the identity check and the save of a row that public pages show."""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import models

from audit.actions import label_for
from audit.services import audit_record
from core import events
from identity.gate import IdentityGate

from ..audit_actions import Action


def require_permission(by: AbstractBaseUser, permission: str, refusal: str) -> None:
    """Raise PermissionDenied with `refusal` unless `by` holds `permission`."""
    if by is None or not by.is_active or not by.has_perm(permission):
        raise PermissionDenied(refusal)


def revision_comment(action: str, message: str = "") -> str:
    """A revision's comment: what was done, and the detail the audit event holds."""
    label = str(label_for(action))
    return f"{label}: {message}" if message else label


def public_rows_check(*rows: models.Model) -> None:
    """Refuse rows whose public fields (names, slugs) hold a protected legal name."""
    IdentityGate.load().check(rows)


def row_save(
    obj: models.Model,
    *,
    by: AbstractBaseUser,
    refusal: str,
    event: events.DomainEvent,
    related: Iterable[models.Model] = (),
) -> models.Model:
    """Save a row that public pages show (with `related` rows shown beside it):
    permission to add or change it, the identity gate, the write, the audit, and
    `event` sent after commit."""
    adding = obj.pk is None
    meta = obj._meta
    verb = "add" if adding else "change"
    require_permission(by, f"{meta.app_label}.{verb}_{meta.model_name}", refusal)
    obj.full_clean()
    related = list(related)
    public_rows_check(obj, *related)
    obj.save()
    action = Action.CREATED if adding else Action.CHANGED
    audit_record(by=by, action=action, obj=obj)
    events.send_on_commit(event, instance=obj, by=by, action=action)
    return obj


def row_delete(
    obj: models.Model,
    *,
    by: AbstractBaseUser,
    refusal: str,
    event: events.DomainEvent,
) -> None:
    """Delete a row, with permission, leaving its trace in the audit trail, and
    send `event` (action "deleted") after commit."""
    meta = obj._meta
    require_permission(by, f"{meta.app_label}.delete_{meta.model_name}", refusal)
    audit_record(by=by, action=Action.DELETED, obj=obj)
    events.send_on_commit(event, instance=obj, by=by, action=Action.DELETED)
    obj.delete()
