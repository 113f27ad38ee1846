"""The editors' workplace for stories, desks, tags, images and accounts.

Each admin gathers what an editor submits and hands it to a service in
`articles.services`; none of them writes a row or re-checks a rule itself. Apps
that add to the article admin (inlines, pages, panels) register what they add in
`story_admin` (see `extensions`); the admin itself is registered once.
"""

from . import accounts, desk, images  # noqa: F401  (register their admins)
from .extensions import ListTool, StoryPanel, story_admin
from .stories import ArticleAdmin, SocialPostInline

__all__ = [
    "ArticleAdmin",
    "ListTool",
    "SocialPostInline",
    "StoryPanel",
    "story_admin",
]
