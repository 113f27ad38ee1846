"""Writes to partners' webhooks and their deliveries, one door each:
permission, validation, the write and its audit event in one transaction, the
sending queued after commit."""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from articles import permissions as perms
from articles.services import require_permission
from audit.actions import Action as RowAction
from audit.services import audit_record
from core import events

from ..audit_actions import Action
from ..models import Delivery, Event, WebhookEndpoint
from .deliveries import ROTATION_OVERLAP
from .sending import AddressRefused, check_url
from .signing import new_secret


def webhook_check(endpoint: WebhookEndpoint) -> None:
    """Refuse a webhook that may not be saved (for forms, before the service)."""
    try:
        check_url(endpoint.url)
    except AddressRefused as exc:
        # The rule every outside address follows (core.outbound), said as it is.
        raise ValidationError({"url": str(exc)}, code="address_refused") from None
    unknown = set(endpoint.events) - set(Event.values)
    if not endpoint.events or unknown:
        raise ValidationError(
            {"events": _("Choose at least one event the partner is told of.")},
            code="no_events",
        )
    endpoint.full_clean(exclude=["secret", "previous_secret"])


@transaction.atomic
def webhook_save(
    *,
    endpoint: WebhookEndpoint,
    by: AbstractBaseUser,
    events: Iterable[str] | None = None,
) -> tuple[WebhookEndpoint, str]:
    """Create or change a webhook: (its row, its signing secret when it was just
    made, else ""). The secret is shown once; the partner keeps it."""
    adding = endpoint.pk is None
    require_permission(
        by,
        perms.ADD_WEBHOOK if adding else perms.CHANGE_WEBHOOK,
        _("You may not add webhooks.") if adding else _("You may not change webhooks."),
    )
    if events is not None:
        # Kept in the order partners read them in the admin.
        chosen = set(events)
        endpoint.events = [value for value in Event.values if value in chosen]
    webhook_check(endpoint)
    secret = ""
    if adding:
        secret = endpoint.secret = new_secret()
    endpoint.save()
    audit_record(
        by=by,
        action=RowAction.CREATED if adding else RowAction.CHANGED,
        obj=endpoint,
    )
    return endpoint, secret


@transaction.atomic
def webhook_delete(*, endpoint: WebhookEndpoint, by: AbstractBaseUser) -> None:
    """Delete a webhook and its deliveries' record; nothing more is sent to it."""
    require_permission(by, perms.DELETE_WEBHOOK, _("You may not delete webhooks."))
    audit_record(by=by, action=RowAction.DELETED, obj=endpoint)
    endpoint.delete()


@transaction.atomic
def webhook_secret_rotate(*, endpoint: WebhookEndpoint, by: AbstractBaseUser) -> str:
    """Give the webhook a new signing secret and return it (shown once). For a
    day deliveries carry a signature by the old secret too, so the partner can
    switch without refusing one."""
    require_permission(by, perms.CHANGE_WEBHOOK, _("You may not change webhooks."))
    endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    endpoint.previous_secret = endpoint.secret
    endpoint.previous_secret_expires_at = timezone.now() + ROTATION_OVERLAP
    endpoint.secret = new_secret()
    endpoint.save(
        update_fields=["secret", "previous_secret", "previous_secret_expires_at"]
    )
    audit_record(
        by=by,
        action=Action.WEBHOOK_SECRET_ROTATED,
        obj=endpoint,
    )
    return endpoint.secret


@events.sends(events.delivery_replayed)
@transaction.atomic
def delivery_replay(*, delivery: Delivery, by: AbstractBaseUser) -> Delivery:
    """Send a delivery again, now: the same body under the same id (a receiver
    that handled it already recognises it), its tries counted afresh."""
    require_permission(
        by, perms.CHANGE_DELIVERY, _("You may not replay webhook deliveries.")
    )
    delivery = Delivery.objects.select_for_update().get(pk=delivery.pk)
    delivery.status = Delivery.Status.PENDING
    delivery.attempts = 0
    delivery.next_attempt_at = timezone.now()
    delivery.save(update_fields=["status", "attempts", "next_attempt_at"])
    audit_record(
        by=by,
        action=Action.DELIVERY_REPLAYED,
        obj=delivery.endpoint,
        message=delivery.message_id,
    )
    events.send_on_commit(
        events.delivery_replayed,
        instance=delivery,
        by=by,
        action=Action.DELIVERY_REPLAYED,
        message=delivery.message_id,
    )
    return delivery
