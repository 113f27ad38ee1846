"""The editorial verbs of the audit trail, registered by the app that records them
(the audit app imports this module at startup)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import Action as RowAction
from audit.actions import register
from identity.audit_actions import IdentityAction


class Action:
    """What the editorial services record: the audit app's row verbs and the desk's
    own (workflow moves, corrections, identities, previews)."""

    CREATED = RowAction.CREATED
    CHANGED = RowAction.CHANGED
    DELETED = RowAction.DELETED
    SUBMITTED = register("submitted", _("Submitted for review"))
    APPROVED = register("approved", _("Approved"))
    SENT_BACK = register("sent_back", _("Sent back to draft"))
    PUBLISHED = register("published", _("Published"))
    SCHEDULED = register("scheduled", _("Scheduled"))
    UNPUBLISHED = register("unpublished", _("Unpublished"))
    KILLED = register("killed", _("Killed"))
    EMBARGO = register("embargo", _("Embargo changed"))
    RESTORED = register("restored", _("Revision restored"))
    CORRECTED = register("corrected", _("Correction added"))
    PROTECTED = IdentityAction.PROTECTED
    WITHDRAWN_TO_PROTECT = register(
        "withdrawn_to_protect", _("Withdrawn to protect an identity")
    )
    IDENTITY_REFUSED = IdentityAction.IDENTITY_REFUSED
    SAVES_PAUSED = IdentityAction.SAVES_PAUSED
    TAGS_MERGED = register("tags_merged", _("Tags merged"))
    LEGAL_NAME_VIEWED = IdentityAction.LEGAL_NAME_VIEWED
    PREVIEW_SHARED = register("preview_shared", _("Preview link shared"))
    PREVIEW_REVOKED = register("preview_revoked", _("Preview link revoked"))
