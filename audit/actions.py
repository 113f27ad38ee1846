"""The verbs of the audit trail: a registry each app fills with the verbs it records.

The `action` column holds any code, so a new verb needs no migration: the app that
records it registers the code with its translated label in its own `audit_actions`
module, which the audit app imports at startup (as the admin autodiscovers `admin`
modules). An event whose verb nobody registers any more reads as its code.

    from audit.actions import register

    class Action:
        PUBLISHED = register("published", _("Published"))

    audit_record(by=editor, action=Action.PUBLISHED, obj=article)
"""

from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The width of AuditEvent.action; checked here so a long code fails at startup
# rather than on the first write (SQLite would even store it whole).
CODE_MAX_LENGTH = 30

_labels: dict[str, str | Promise] = {}


def register(code: str, label: str | Promise) -> str:
    """Register the verb `code` with its translated `label`; return the code."""
    if not code or len(code) > CODE_MAX_LENGTH:
        raise ImproperlyConfigured(
            f"An audit action code has 1 to {CODE_MAX_LENGTH} characters: {code!r}."
        )
    # Two registrations of one code are two apps claiming a verb (or one meaning it
    # twice); whichever label won would depend on the import order.
    if code in _labels:
        raise ImproperlyConfigured(f"The audit action {code!r} is registered twice.")
    _labels[code] = label
    return code


def is_registered(code: str) -> bool:
    """Whether some app registered `code`."""
    return code in _labels


def label_for(code: str) -> str | Promise:
    """The registered label of `code`, or the code itself for an unknown verb."""
    return _labels.get(code, code)


def registered() -> list[tuple[str, str | Promise]]:
    """Every registered verb as (code, label), in the order of registration."""
    return list(_labels.items())


class Action:
    """The verbs any app records of its rows, and the audit app's own."""

    CREATED = register("created", _("Created"))
    CHANGED = register("changed", _("Changed"))
    DELETED = register("deleted", _("Deleted"))
    # Written by the accounts admin (audit/admin.py) when someone's groups change.
    ROLES_CHANGED = register("roles_changed", _("Roles changed"))
