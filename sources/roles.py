"""What each role may do with sources, their social accounts and a story's
attributions, granted in the registry of roles (core/roles.py), which imports this
module at startup."""

from articles import permissions as perms
from core.roles import EDITORS, REPORTERS, SOURCE_MANAGERS, grant

# Attributions are rows of the story form (a part, declared by this app): whoever
# writes a story credits its sources with it, and reads the outlets to pick one.
_STORY_CREDITS = [
    perms.VIEW_SOURCE,
    perms.VIEW_ATTRIBUTION,
    perms.ADD_ATTRIBUTION,
    perms.CHANGE_ATTRIBUTION,
    perms.DELETE_ATTRIBUTION,
]

grant(REPORTERS, _STORY_CREDITS)
grant(EDITORS, _STORY_CREDITS)
# Keeps the list of outlets: sources, their social accounts and usage terms.
grant(
    SOURCE_MANAGERS,
    [
        perms.VIEW_SOURCE,
        perms.ADD_SOURCE,
        perms.CHANGE_SOURCE,
        perms.DELETE_SOURCE,
        perms.VIEW_SOCIALACCOUNT,
        perms.ADD_SOCIALACCOUNT,
        perms.CHANGE_SOCIALACCOUNT,
        perms.DELETE_SOCIALACCOUNT,
    ],
)
