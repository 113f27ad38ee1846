"""The audit trail's permission, spelled once (audit/roles.py grants it). Plain strings
and no imports: the settings read this module through `articles.permissions`."""

VIEW_AUDITEVENT = "audit.view_auditevent"
