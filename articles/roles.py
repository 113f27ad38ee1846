"""What each role may do with stories, their parts, sections, corrections and tags
(django-taggit's model, the desk's vocabulary), granted in the registry of roles
(core/roles.py), which imports this module at startup."""

from core.roles import EDITORS, REPORTERS, SOURCE_MANAGERS, grant

from . import permissions as perms

_STORY_READING = [perms.VIEW_ARTICLE, perms.VIEW_SECTION, perms.VIEW_TAG]

# The rows a story is made of on its form (articles.parts: bylines, people named,
# social posts): whoever writes a story writes these with it. Corrections are not
# among them: an editor adds one on its own page.
_STORY_PARTS = [
    perms.VIEW_BYLINE,
    perms.ADD_BYLINE,
    perms.CHANGE_BYLINE,
    perms.DELETE_BYLINE,
    perms.VIEW_ARTICLEPERSON,
    perms.ADD_ARTICLEPERSON,
    perms.CHANGE_ARTICLEPERSON,
    perms.DELETE_ARTICLEPERSON,
    perms.VIEW_SOCIALPOST,
    perms.ADD_SOCIALPOST,
    perms.CHANGE_SOCIALPOST,
    perms.DELETE_SOCIALPOST,
]

# Writes stories, edits own drafts, submits them for review; cannot publish.
grant(
    REPORTERS,
    [*_STORY_READING, perms.ADD_ARTICLE, perms.CHANGE_ARTICLE, *_STORY_PARTS],
)

# Edits any story, approves, publishes, schedules, withdraws, kills, corrects; keeps
# the sections and the tags.
grant(
    EDITORS,
    [
        *_STORY_READING,
        perms.ADD_ARTICLE,
        perms.CHANGE_ARTICLE,
        perms.DELETE_ARTICLE,
        perms.EDIT_ANY_ARTICLE,
        perms.REVIEW_ARTICLE,
        perms.PUBLISH_ARTICLE,
        perms.UNPUBLISH_ARTICLE,
        perms.KILL_ARTICLE,
        *_STORY_PARTS,
        perms.ADD_CORRECTION,
        perms.VIEW_CORRECTION,
        perms.ADD_SECTION,
        perms.CHANGE_SECTION,
        perms.ADD_TAG,
        perms.CHANGE_TAG,
        perms.DELETE_TAG,
    ],
)

# Keeping the outlets, they read the stories that credit them.
grant(SOURCE_MANAGERS, [perms.VIEW_ARTICLE])
