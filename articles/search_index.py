"""The stored search index of stories, kept with the story it indexes.

On PostgreSQL each story keeps a stored tsvector (`Article.search_vector`, GIN
indexed), rebuilt by `index_article` whenever the story is saved or announced as
changed. It holds two readings of every field, weighted headline (A) above kicker and
summary (B) above body (C):

- the folded words and their clitic-free readings, under the `simple` configuration
  (no stemming, so names stay whole: `arabic` stems "بشار" to "شار");
- the text with only its marks removed, under the `arabic` configuration, whose
  stemmer finds "مكتبة" from "المكتبات" (it stems worse once ة is folded to ه).

Other databases (SQLite, the embedded default) keep only the folded `search_text`,
which Article.save() writes. Searching the index is the read side's
(publishing.search); the readings both sides share are defined here.
"""

import re
from functools import lru_cache
from html import unescape

from django.conf import settings
from django.contrib.postgres.search import SearchVector
from django.db import connection, models
from django.db.models import Value
from django.utils.html import strip_tags

from arabic import search_fold, strip_clitics, strip_marks

# Field groups with their PostgreSQL weight and their score on other databases.
FIELDS = (
    (("headline",), "A", 4),
    (("kicker", "summary"), "B", 2),
    (("body",), "C", 1),
)

WORD_RE = re.compile(r"\w+")
# Closing block tags and line breaks end a word, though strip_tags joins across them.
_BLOCK_END_RE = re.compile(r"(</(?:p|li|h\d|blockquote|div|td|th)>|<br\s*/?>)", re.I)


def plain_text(html: str) -> str:
    """The text of stored HTML, with paragraphs kept apart by a space."""
    return unescape(strip_tags(_BLOCK_END_RE.sub(r" \1", html or "")))


@lru_cache(maxsize=65536)
def readings(term: str) -> tuple[str, ...]:
    # Cached: a newsroom's vocabulary repeats, and indexing reads every word.
    return tuple(strip_clitics(term))


def _expanded(folded: str) -> str:
    """Every folded word followed by its readings without proclitics."""
    return " ".join(
        reading for word in WORD_RE.findall(folded) for reading in readings(word)
    )


def _field_text(article: models.Model, names: tuple[str, ...]) -> str:
    return " ".join(
        plain_text(getattr(article, f"{name}_{code}", "") or "")
        for name in names
        for code, _language in settings.LANGUAGES
    )


def document_parts(article: models.Model) -> list[tuple[str, str, str]]:
    """(text, configuration, weight) of every reading the stored vector holds."""
    parts = []
    for names, weight, _score in FIELDS:
        text = _field_text(article, names)
        parts.append((_expanded(search_fold(text)), "simple", weight))
        parts.append((strip_marks(text), "arabic", weight))
    return parts


def document_vector(article: models.Model) -> SearchVector:
    """The tsvector expression for one story, built from its loaded fields."""
    vector = None
    for text, config, weight in document_parts(article):
        part = SearchVector(Value(text), config=config, weight=weight)
        vector = part if vector is None else vector + part
    return vector


def index_article(article: models.Model) -> None:
    """Rebuild the story's stored search vector (PostgreSQL only; a no-op elsewhere)."""
    if connection.vendor != "postgresql" or article.pk is None:
        return
    stories = type(article)._default_manager
    stories.filter(pk=article.pk).update(search_vector=document_vector(article))


def index_articles(articles: list[models.Model]) -> None:
    """Rebuild the vectors of many saved stories in one statement (bulk writers such
    as seed_newsroom); the same vector index_article stores, a no-op elsewhere."""
    if connection.vendor != "postgresql" or not articles:
        return
    rows = [(a.pk, document_parts(a)) for a in articles]
    shape = rows[0][1]
    vector = " || ".join(
        f"setweight(to_tsvector('{config}'::regconfig, v.t{i}), '{weight}')"
        for i, (_text, config, weight) in enumerate(shape)
    )
    columns = ", ".join(f"t{i}" for i in range(len(shape)))
    values = ", ".join("(%s::bigint" + ", %s" * len(shape) + ")" for _row in rows)
    params = [item for pk, parts in rows for item in (pk, *(p[0] for p in parts))]
    table = articles[0]._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS a SET search_vector = {vector} "
            f"FROM (VALUES {values}) AS v(id, {columns}) WHERE a.id = v.id",
            params,
        )
