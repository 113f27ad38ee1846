"""What every service shares: the permission check (core.permissions), the audit
action names, the identity check, and the save and deletion (audit.services) of a
row that public pages show."""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.db import models

from audit.actions import label_for
from audit.services import audit_record, row_delete
from core import events
from core.permissions import require_permission
from identity.gate import IdentityGate

from ..audit_actions import Action


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


__all__ = [
    "Action",
    "public_rows_check",
    "require_permission",
    "revision_comment",
    "row_delete",
    "row_save",
]
