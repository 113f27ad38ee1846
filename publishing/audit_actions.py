"""The read side's verbs of the audit trail (the audit app imports this module)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import register


class Action:
    """What the read side records: a response it refused to send."""

    WITHHELD = register("withheld", _("Page withheld (protected name)"))
