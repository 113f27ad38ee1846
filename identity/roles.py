"""Who may see and write people and their legal names, granted in the registry of
roles (core/roles.py), which imports this module at startup."""

from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS, grant

from . import permissions as perms

# Whoever writes a story names people in it, and may add the one it needs.
_PEOPLE = [perms.VIEW_PERSON, perms.ADD_PERSON, perms.CHANGE_PERSON]

grant(REPORTERS, _PEOPLE)
grant(EDITORS, _PEOPLE)
# Sees and edits the legal names of protected people.
grant(IDENTITY_OFFICERS, [*_PEOPLE, perms.VIEW_LEGAL_NAME])
