"""Who may keep the agency wire's channels and read what comes in, granted in the
registry of roles (core/roles.py), which imports this module at startup."""

from articles import permissions as perms
from core.roles import EDITORS, SOURCE_MANAGERS, grant

# Editors read the incoming list and keep the Media Topic → section mapping.
grant(
    EDITORS,
    [
        perms.VIEW_AGENCYITEM,
        perms.VIEW_TOPICSECTION,
        perms.ADD_TOPICSECTION,
        perms.CHANGE_TOPICSECTION,
        perms.DELETE_TOPICSECTION,
    ],
)
# Source managers keep the channels the copy comes from, and read their logs.
grant(
    SOURCE_MANAGERS,
    [
        perms.VIEW_CHANNEL,
        perms.ADD_CHANNEL,
        perms.CHANGE_CHANNEL,
        perms.DELETE_CHANNEL,
        perms.VIEW_CHANNELLOG,
    ],
)
