"""Public search over published stories, folded the way arabic.search_fold folds.

Both sides of a match are folded alike, and each word is also read without its
proclitics (arabic.strip_clitics), so "لغزة" and "غزة" find each other. On
PostgreSQL the stored vector of each story (articles.search_index) is searched; an
exact word matches both of its readings and so ranks above a word found only by its
stem. Other databases (SQLite, the embedded default) match each folded word with
LIKE over `search_text` and rank by the field it was found in.
"""

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import partial

from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import F, Q, QuerySet
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from arabic import search_fold, strip_marks
from articles import search_window
from articles.models import Article
from articles.search_index import FIELDS, WORD_RE, plain_text, readings
from articles.search_window import newest_window

# Beyond these a query is cut short rather than refused.
MAX_QUERY_LENGTH = 300
# Readers of news look for the recent, and a common word matches a large share of
# the archive: the newest SEARCH_WINDOW matches are ranked, found among the newest
# stories first (articles.search_window, shared with the desk's search); dates reach
# further back.
SEARCH_WINDOW = search_window.SEARCH_WINDOW
FIRST_SLICE_DAYS = search_window.FIRST_SLICE_DAYS
MAX_SLICE_DAYS = search_window.MAX_SLICE_DAYS
MAX_TERMS = 8
MAX_TERM_LENGTH = 60


def query_terms(query: str) -> list[str]:
    """The folded words of a reader's query, at most MAX_TERMS of them."""
    words = WORD_RE.findall(search_fold(query[:MAX_QUERY_LENGTH]))
    terms = dict.fromkeys(word[:MAX_TERM_LENGTH] for word in words)
    return list(terms)[:MAX_TERMS]


# ------------------------------------------------------------------ searching


class SearchResults(Sequence):
    """The matches, best first: their primary keys are all known, and their rows are
    read a page at a time (a Paginator slices it)."""

    def __init__(self, ranked: list[int], rows: QuerySet):
        self.ranked = ranked
        self._rows = rows

    def __len__(self) -> int:
        return len(self.ranked)

    def __getitem__(self, index):
        if not isinstance(index, slice):
            return self[index : index + 1 or None][0]
        pks = self.ranked[index]
        rows = self._rows.in_bulk(pks)
        return [rows[pk] for pk in pks if pk in rows]

    def __iter__(self):
        return iter(self[:])

    @property
    def window_full(self) -> bool:
        """Whether older matches than these may exist (the window is full)."""
        return len(self.ranked) >= SEARCH_WINDOW


def search_articles(
    query: str,
    *,
    language: str,
    section: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> SearchResults:
    """Published stories of the `language` edition matching every word of `query`:
    the newest SEARCH_WINDOW matches, best first (a match in the headline above the
    summary above the body, then the newest)."""
    articles = (
        Article.objects.published()
        .available_in(language)
        .for_listing(*[f"body_{code}" for code, _name in settings.LANGUAGES], "body")
    )
    terms = query_terms(query)
    if not terms:
        return SearchResults([], articles)
    matches = articles
    if section:
        matches = matches.filter(section__slug=section)
    if date_from:
        matches = matches.filter(published_at__date__gte=date_from)
    if date_to:
        matches = matches.filter(published_at__date__lte=date_to)
    if connection.vendor == "postgresql":
        rank = partial(_full_text, query=query, terms=terms)
    else:
        rank = partial(_like, terms=terms)
    return SearchResults(_newest_window(matches, rank, date_from, date_to), articles)


def _newest_window(
    matches: QuerySet,
    rank: Callable[..., list[int]],
    date_from: date | None,
    date_to: date | None,
) -> list[int]:
    """The newest SEARCH_WINDOW matches, ranked (articles.search_window)."""
    return newest_window(
        matches,
        rank,
        window=SEARCH_WINDOW,
        date_from=date_from,
        date_to=date_to,
        first_days=FIRST_SLICE_DAYS,
        max_days=MAX_SLICE_DAYS,
    )


def _full_text(
    matches: QuerySet, by_index: bool, *, query: str, terms: list[str]
) -> list[int]:
    folded = None
    for term in terms:
        any_reading = None
        for reading in readings(term):
            one = SearchQuery(reading, config="simple")
            any_reading = one if any_reading is None else any_reading | one
        folded = any_reading if folded is None else folded & any_reading
    raw_words = WORD_RE.findall(
        strip_marks(unicodedata.normalize("NFKC", query[:MAX_QUERY_LENGTH]))
    )[:MAX_TERMS]
    stemmed = SearchQuery(" ".join(raw_words), config="arabic")
    window = (
        matches.filter(search_vector=folded | stemmed)
        .latest_first(by_index=by_index)
        .values("pk")
    )
    vector = F("search_vector")
    # Ranked in the database, but only the window's rows: reading a story's vector
    # to rank it is the costly part.
    return list(
        Article.objects.filter(pk__in=window[:SEARCH_WINDOW])
        .annotate(rank=SearchRank(vector, folded) + SearchRank(vector, stemmed))
        .order_by("-rank", "-published_at", "-pk")
        .values_list("pk", flat=True)
    )


def _like(matches: QuerySet, by_index: bool, *, terms: list[str]) -> list[int]:
    condition = Q()
    for term in terms:
        any_reading = Q()
        for reading in readings(term):
            any_reading |= Q(search_text__contains=reading)
        condition &= any_reading
    names = [
        f"{name}_{code}"
        for names, _weight, score in FIELDS
        if score > 1
        for name in names
        for code, _language in settings.LANGUAGES
    ]
    window = (
        matches.filter(condition)
        .latest_first(by_index=by_index)
        .values_list("pk", *names)
    )
    scored = []
    for pk, *texts in window[:SEARCH_WINDOW]:
        fields = dict(
            zip(names, (search_fold(text or "") for text in texts), strict=True)
        )
        scored.append((sum(_term_score(term, fields) for term in terms), pk))
    # Stable: among equal scores the newest stays first.
    return [pk for _score, pk in sorted(scored, key=lambda item: -item[0])]


def _term_score(term: str, fields: dict[str, str]) -> int:
    """The weight of the best field holding the term (the body when none else does)."""
    forms = readings(term)
    for names, _weight, score in FIELDS[:-1]:
        if any(
            reading in text
            for key, text in fields.items()
            if key.rsplit("_", 1)[0] in names
            for reading in forms
        ):
            return score
    return FIELDS[-1][2]


# ------------------------------------------------------------------ snippets


@dataclass(frozen=True)
class _Folded:
    text: str  # the folded text
    origin: list[int]  # for each folded character, its index in the original


def _fold_with_origin(text: str) -> _Folded:
    folded, origin = [], []
    for index, char in enumerate(text):
        for piece in " " if char.isspace() else search_fold(char):
            folded.append(piece)
            origin.append(index)
    return _Folded("".join(folded), origin)


def _match_spans(text: str, terms: list[str]) -> list[tuple[int, int]]:
    """Where the terms (or their clitic-free readings) occur in `text`, merged."""
    folded = _fold_with_origin(text)
    spans = []
    for term in terms:
        for reading in readings(term):
            if reading != term and len(reading) < 3:
                continue  # two letters left by stripping mark too much
            for found in re.finditer(re.escape(reading), folded.text):
                start = folded.origin[found.start()]
                end = folded.origin[found.end() - 1] + 1
                spans.append((start, end))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def snippet(
    text: str, query: str, *, is_html: bool = True, length: int = 220
) -> SafeString:
    """An escaped excerpt of `text` (stored HTML, or plain text when not `is_html`)
    around the first match, each match in <mark>."""
    text = " ".join((plain_text(text) if is_html else text).split())
    terms = query_terms(query)
    spans = _match_spans(text, terms) if terms else []
    start = 0
    if spans and spans[0][0] > length // 3:
        start = text.rfind(" ", 0, spans[0][0] - length // 3) + 1
    end = min(len(text), start + length)
    if end < len(text) and text.rfind(" ", start, end) > start:
        end = text.rfind(" ", start, end)
    parts = ["…"] if start > 0 else []
    position = start
    for span_start, span_end in spans:
        if span_end <= start or span_start >= end:
            continue
        span_start, span_end = max(span_start, start), min(span_end, end)
        parts.append(escape(text[position:span_start]))
        parts.append(f"<mark>{escape(text[span_start:span_end])}</mark>")
        position = span_end
    parts.append(escape(text[position:end]))
    if end < len(text):
        parts.append("…")
    return mark_safe("".join(parts))  # every piece of text above is escaped


def article_snippet(article: Article, query: str, *, language: str) -> SafeString:
    """The excerpt a result shows: from the edition's summary if the query is found
    there, else from its body, else the summary's opening."""
    summary = getattr(article, f"summary_{language}", "") or ""
    body = getattr(article, f"body_{language}", "") or ""
    terms = query_terms(query)
    # The summary is plain text; the body is stored HTML.
    for text, is_html in ((summary, False), (plain_text(body), False)):
        if text and terms and _match_spans(text, terms):
            return snippet(text, query, is_html=is_html)
    return snippet(summary or plain_text(body), query, is_html=False)
