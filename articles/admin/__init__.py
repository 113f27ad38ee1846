"""The editors' workplace for stories, desks, tags and the people named in stories.

Each admin gathers what an editor submits and hands it to a service in
`articles.services`; none of them writes a row or re-checks a rule itself. Apps
that add to the article admin (sources, ingest) subclass the registered class and
register it again (see `extend_article_admin`).
"""

from . import accounts, desk, images, people  # noqa: F401  (register their admins)
from .stories import (
    ArticleAdmin,
    SocialPostInline,
    extend_article_admin,
    registered_article_admin,
)

__all__ = [
    "ArticleAdmin",
    "SocialPostInline",
    "extend_article_admin",
    "registered_article_admin",
]
