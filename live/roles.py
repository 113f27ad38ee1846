"""Who may write a live coverage's entries and run it, granted in the registry of
roles (core/roles.py), which imports this module at startup."""

from articles import permissions as perms
from core.roles import EDITORS, REPORTERS, grant

# Reporters on the scene post entries as editors do; editors also delete them and
# start, pause and end the coverage.
_ENTRIES = [perms.VIEW_LIVEENTRY, perms.ADD_LIVEENTRY, perms.CHANGE_LIVEENTRY]

grant(REPORTERS, _ENTRIES)
grant(EDITORS, [*_ENTRIES, perms.DELETE_LIVEENTRY, perms.RUN_LIVECOVERAGE])
