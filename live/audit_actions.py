"""The live desk's verbs in the audit trail."""

from django.utils.translation import gettext_lazy as _

from audit.actions import register


class Action:
    STARTED = register("live_started", _("Live coverage started"))
    PAUSED = register("live_paused", _("Live coverage paused"))
    ENDED = register("live_ended", _("Live coverage ended"))
    ENTRY_ADDED = register("live_entry_added", _("Live entry added"))
    ENTRY_CHANGED = register("live_entry_changed", _("Live entry changed"))
    ENTRY_PINNED = register("live_entry_pinned", _("Live entry pinned"))
    ENTRY_UNPINNED = register("live_entry_unpinned", _("Live entry unpinned"))
    ENTRY_DELETED = register("live_entry_deleted", _("Live entry deleted"))
    ENTRY_CORRECTED = register("live_entry_corrected", _("Live entry corrected"))
