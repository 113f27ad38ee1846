"""The import's verb in the audit trail (the audit app imports this at startup)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import register


class Action:
    """What a story import records."""

    IMPORTED = register("imported", _("Imported"))
