"""Who may read the audit trail, granted in the registry of roles (core/roles.py),
which imports this module at startup."""

from core.roles import EDITORS, grant

from .permissions import VIEW_AUDITEVENT

grant(EDITORS, [VIEW_AUDITEVENT])
