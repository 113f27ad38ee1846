"""The identity verbs of the audit trail (the audit app imports this module at
startup)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import Action as RowAction
from audit.actions import register


class IdentityAction:
    CREATED = RowAction.CREATED
    CHANGED = RowAction.CHANGED
    DELETED = RowAction.DELETED
    PROTECTED = register("protected", _("Identity protected"))
    LEGAL_NAME_VIEWED = register("legal_name_viewed", _("Legal name viewed"))
    IDENTITY_REFUSED = register(
        "identity_refused", _("Refused: a protected legal name")
    )
    SAVES_PAUSED = register("saves_paused", _("Saves paused after refusals"))
