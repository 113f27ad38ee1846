"""The document of a story taken away: what a partner needs to remove its copy
(which document, which version, that it is gone) and nothing of the story."""

from articles.models import Article, Status

from .common import compact, when
from .document import NINJS_SCHEMA, NINJS_VERSION, document_uri


def tombstone(article: Article, language: str, *, base_url: str) -> dict:
    """A plain ninjs 3.1 document with `pubStatus` "canceled" for a killed story
    and "withheld" for one unpublished or held back: no headline, body, names or
    pictures, so it needs no identity check and can always be sent."""
    return compact(
        {
            "uri": document_uri(article, language, base_url=base_url),
            "standard": {
                "name": "ninjs",
                "version": NINJS_VERSION,
                "schema": NINJS_SCHEMA,
            },
            "type": "text",
            "version": str(article.version),
            "versionCreated": when(article.updated_at),
            "pubStatus": "canceled" if article.status == Status.KILLED else "withheld",
            "language": language,
        }
    )
