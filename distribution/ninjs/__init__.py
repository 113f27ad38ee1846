"""A story as an IPTC ninjs 3.1 document: the document and its identity check
(`document`), pictures and posts beside the body (`associations`), the rights and
usage terms (`rights`), and the tombstone of a story taken away (`tombstone`)."""

from .associations import printed_together
from .document import (
    EXTENSION,
    EXTENSION_SCHEMA,
    NINJS_SCHEMA,
    NINJS_VERSION,
    DocumentWithheld,
    body_images,
    document_uri,
    ninjs_document,
)
from .rights import RIGHTS_ROLES
from .tombstone import tombstone

__all__ = [
    "EXTENSION",
    "EXTENSION_SCHEMA",
    "NINJS_SCHEMA",
    "NINJS_VERSION",
    "RIGHTS_ROLES",
    "DocumentWithheld",
    "body_images",
    "document_uri",
    "ninjs_document",
    "printed_together",
    "tombstone",
]
