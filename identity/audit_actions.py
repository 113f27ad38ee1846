"""The identity verbs of the audit trail (the audit app imports this module at
startup)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import register


class IdentityAction:
    PROTECTED = register("protected", _("Identity protected"))
    LEGAL_NAME_VIEWED = register("legal_name_viewed", _("Legal name viewed"))
