"""Who may use the image library, granted in the registry of roles (core/roles.py),
which imports this module at startup."""

from core.roles import EDITORS, REPORTERS, grant

from . import permissions as perms

# Reporters add and describe pictures; only editors delete one from the library.
grant(REPORTERS, [perms.VIEW_IMAGE, perms.ADD_IMAGE, perms.CHANGE_IMAGE])
grant(
    EDITORS,
    [perms.VIEW_IMAGE, perms.ADD_IMAGE, perms.CHANGE_IMAGE, perms.DELETE_IMAGE],
)
