"""The correction ledger of a story."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from core import events
from identity.gate import IdentityGate
from identity.refusals import Door, door

from .. import permissions as perms
from ..concurrency import record_as_found
from ..exposure import story_rows
from ..models import Article, Correction, Status
from ..revisions import revision_record
from .base import Action, require_permission, revision_comment


@events.sends(events.story_corrected)
@door(Door.CORRECTION)
@transaction.atomic
def correction_add(
    *,
    article: Article,
    by: AbstractBaseUser,
    kind: str,
    text_ar: str = "",
    text_en: str = "",
) -> Correction:
    """Print a correction, clarification or update at the end of a story.

    Drafts and public stories alike; the permission decides who may. The story's
    modified date moves to now, so readers and search engines see it changed.
    """
    require_permission(
        by, perms.ADD_CORRECTION, _("You may not add corrections to stories.")
    )
    if article.status == Status.KILLED:
        raise ValidationError(_("A killed story takes no corrections."))
    correction = Correction(
        article=article,
        kind=kind,
        text_ar=text_ar.strip(),
        text_en=text_en.strip(),
        created_by=by,
    )
    correction.full_clean()  # a kind we know, and text in at least one language
    IdentityGate.load().check(story_rows(article, changed=[correction]))
    # Only the counters move; a fresh read under a lock keeps others' text intact.
    current = Article.objects.select_for_update().get(pk=article.pk)
    record_as_found(current)  # before the correction joins the story's rows
    correction.save()
    current.version += 1
    current.save(update_fields=["updated_at", "version"])
    article.version, article.updated_at = current.version, current.updated_at
    audit_record(by=by, action=Action.CORRECTED, obj=article, message=kind)
    events.send_on_commit(
        events.story_corrected,
        instance=article,
        by=by,
        action=Action.CORRECTED,
        message=kind,
        correction=correction,
    )
    revision_record(current, by=by, comment=revision_comment(Action.CORRECTED, kind))
    return correction
