"""Writes to partners and their keys, one door each: permission, validation,
the write and its audit event in one transaction."""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from articles import permissions as perms
from articles.models import Section
from articles.services import require_permission
from audit.actions import Action as RowAction
from audit.services import audit_record
from sources.models import Source

from .audit_actions import Action
from .keys import LIVE_KEYS_MAX, new_key
from .models import Partner, PartnerKey


@transaction.atomic
def partner_save(
    *,
    partner: Partner,
    by: AbstractBaseUser,
    sections: Iterable[Section] | None = None,
    sources: Iterable[Source] | None = None,
    rights_sources: Iterable[Source] | None = None,
) -> Partner:
    """Create or change a partner and what it may receive (None leaves a list as
    it is)."""
    adding = partner.pk is None
    require_permission(
        by,
        perms.ADD_PARTNER if adding else perms.CHANGE_PARTNER,
        _("You may not add partners.") if adding else _("You may not change partners."),
    )
    partner.full_clean()
    partner.save()
    for name, rows in (
        ("sections", sections),
        ("sources", sources),
        ("rights_sources", rights_sources),
    ):
        if rows is not None:
            getattr(partner, name).set(list(rows))
    # Nothing readers see changed: no domain event, no page cache to purge.
    audit_record(
        by=by,
        action=RowAction.CREATED if adding else RowAction.CHANGED,
        obj=partner,
    )
    return partner


@transaction.atomic
def partner_delete(*, partner: Partner, by: AbstractBaseUser) -> None:
    """Delete a partner and its keys; its access ends at once."""
    require_permission(by, perms.DELETE_PARTNER, _("You may not delete partners."))
    audit_record(by=by, action=RowAction.DELETED, obj=partner)
    partner.delete()


@transaction.atomic
def partner_key_create(
    *, partner: Partner, by: AbstractBaseUser
) -> tuple[PartnerKey, str]:
    """Make a key for `partner`: (its row, the full key). The full key is not
    kept anywhere: show it once and let the partner store it.

    A partner holds at most two live keys, so it can move to a new key before the
    old one is revoked, and a forgotten old key cannot pile up.
    """
    require_permission(
        by, perms.ADD_PARTNERKEY, _("You may not make API keys for partners.")
    )
    # Locks the partner, so two clicks cannot make a third live key.
    Partner.objects.select_for_update().get(pk=partner.pk)
    if partner.keys.live().count() >= LIVE_KEYS_MAX:
        raise ValidationError(
            _(
                "This partner already holds %(count)d live keys: revoke the one it "
                "no longer uses before making another."
            )
            % {"count": LIVE_KEYS_MAX},
            code="too_many_keys",
        )
    full, prefix, digest = new_key()
    key = PartnerKey.objects.create(
        partner=partner, prefix=prefix, digest=digest, created_by=by
    )
    # The prefix only: the trail must not hold what opens the API.
    audit_record(
        by=by,
        action=Action.KEY_CREATED,
        obj=partner,
        message=str(key),
    )
    return key, full


@transaction.atomic
def partner_key_revoke(*, key: PartnerKey, by: AbstractBaseUser) -> PartnerKey:
    """Stop `key` from opening the API, at once; revoking twice changes nothing."""
    require_permission(
        by, perms.CHANGE_PARTNERKEY, _("You may not revoke partners' API keys.")
    )
    if key.revoked_at is not None:
        return key
    key.revoked_at = timezone.now()
    key.save(update_fields=["revoked_at"])
    audit_record(
        by=by,
        action=Action.KEY_REVOKED,
        obj=key.partner,
        message=str(key),
    )
    return key
