"""The wire's verbs in the audit trail (the audit app imports this at startup)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import register


class Action:
    RECEIVED = register("wire_received", _("Received from the wire"))
    TAKEN = register("wire_taken", _("Taken from the wire"))
    UPDATED = register("wire_updated", _("Updated by the agency"))
    UPDATE_OFFERED = register("wire_update_offered", _("Agency update offered"))
    UPDATE_APPLIED = register("wire_update_applied", _("Agency update applied"))
    KILLED = register("wire_killed", _("Killed by the agency"))
    PRUNED = register("wire_pruned", _("Old wire items removed"))
