"""Links that show an unpublished story to someone outside the newsroom."""

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from identity.gate import IdentityGate

from .. import permissions as perms
from ..exposure import story_rows
from ..models import Article, PreviewLink, Status
from ..models.preview import PREVIEW_HOURS, PREVIEW_MAX_HOURS
from ..workflow import may_edit
from .base import Action, require_permission


def _require_may_edit(article: Article, by: AbstractBaseUser, refusal: str) -> None:
    """A share link shows the story to someone outside the newsroom: only those who
    may edit the story decide that (a reporter, their own draft; an editor, any)."""
    require_permission(by, perms.CHANGE_ARTICLE, refusal)
    if not may_edit(article, by):
        raise PermissionDenied(
            _("You may share previews only of stories you may edit; ask an editor.")
        )


@transaction.atomic
def preview_link_create(
    *, article: Article, by: AbstractBaseUser, hours: int = PREVIEW_HOURS
) -> PreviewLink:
    """Create a link that shows the story as saved to anyone holding it, for `hours`.

    A story that holds a protected legal name is refused, as it would be at publishing:
    the link's reader is public.
    """
    _require_may_edit(article, by, _("You may not share previews of stories."))
    if article.status == Status.KILLED:
        raise ValidationError(_("A killed story cannot be shared."))
    if not 1 <= hours <= PREVIEW_MAX_HOURS:
        raise ValidationError(
            _("A preview link lasts between 1 and %(max)s hours.")
            % {"max": PREVIEW_MAX_HOURS},
            code="preview_hours",
        )
    IdentityGate.load().check(story_rows(article))
    now = timezone.now()
    link = PreviewLink(
        article=article,
        created_by=by,
        created_at=now,
        expires_at=now + timedelta(hours=hours),
    )
    link.full_clean()
    link.save()
    # The token stays out of the trail: whoever reads it could open the story.
    audit_record(
        by=by,
        action=Action.PREVIEW_SHARED,
        obj=article,
        message=_("%(link)s, valid until %(until)s")
        % {"link": link, "until": link.expires_at.isoformat()},
    )
    return link


@transaction.atomic
def preview_link_revoke(*, link: PreviewLink, by: AbstractBaseUser) -> PreviewLink:
    """Stop a preview link from opening its story; revoking twice changes nothing."""
    _require_may_edit(link.article, by, _("You may not revoke previews of stories."))
    if link.revoked_at is not None:
        return link
    link.revoked_at = timezone.now()
    link.save(update_fields=["revoked_at"])
    audit_record(
        by=by,
        action=Action.PREVIEW_REVOKED,
        obj=link.article,
        message=str(link),
    )
    return link
