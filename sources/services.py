"""Writes to the newsroom's list of sources, through the same door as every edit."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import models, transaction
from django.utils.translation import gettext as _

from articles.services import Action, public_rows_check, require_permission
from audit.services import audit_record

from .models import Source


@transaction.atomic
def source_save(
    *,
    source: Source,
    by: AbstractBaseUser,
    changed: list[models.Model] = (),
    deleted: list[models.Model] = (),
) -> Source:
    """Create or change a source with its social accounts (`changed`, `deleted`)."""
    adding = source.pk is None
    require_permission(
        by,
        "sources.add_source" if adding else "sources.change_source",
        _("You may not change sources; ask a source manager."),
    )
    source.full_clean()
    public_rows_check(source, *changed)
    source.save()
    for account in deleted:
        account.delete()
    for account in changed:
        account.source = source
        account.save()
    audit_record(by=by, action=Action.CREATED if adding else Action.CHANGED, obj=source)
    return source


@transaction.atomic
def source_delete(*, source: Source, by: AbstractBaseUser) -> None:
    require_permission(by, "sources.delete_source", _("You may not delete sources."))
    audit_record(by=by, action=Action.DELETED, obj=source)
    source.delete()
