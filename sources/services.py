"""Writes to the newsroom's list of sources, through the same door as every edit."""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.db import models, transaction
from django.utils.translation import gettext as _

from articles.services import row_delete, row_save
from core import events
from identity.refusals import Door, door

from .models import Source


@events.sends(events.source_changed)
@door(Door.SOURCE_SAVE)
@transaction.atomic
def source_save(
    *,
    source: Source,
    by: AbstractBaseUser,
    changed: Iterable[models.Model] = (),
    deleted: Iterable[models.Model] = (),
) -> Source:
    """Create or change a source with its social accounts (`changed`, `deleted`)."""
    changed = list(changed)
    row_save(
        source,
        by=by,
        refusal=_("You may not change sources; ask a source manager."),
        event=events.source_changed,
        related=changed,
    )
    for account in deleted:
        account.delete()
    for account in changed:
        account.source = source
        account.save()
    return source


@events.sends(events.source_changed)
@transaction.atomic
def source_delete(*, source: Source, by: AbstractBaseUser) -> None:
    row_delete(
        source,
        by=by,
        refusal=_("You may not delete sources."),
        event=events.source_changed,
    )
