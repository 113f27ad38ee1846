"""The documents partners receive, by feed page and by webhook alike: a story's
edition as it stands now (its full ninjs document while public, else a tombstone),
the tombstone of a deleted story, and a page's documents built together and kept
under the page cache's generation."""

import hashlib

from django.conf import settings
from django.core.cache import cache

from articles.models import Article, Status
from publishing import page_cache

from .models import Event, Release
from .ninjs import DocumentWithheld, body_images, ninjs_document, tombstone

_TAKEN_AWAY = (Event.UNPUBLISHED, Event.KILLED)


def edition_document(
    article: Article,
    language: str,
    event: str,
    *,
    base_url: str,
    images: dict | None = None,
) -> dict:
    """The document a partner gets for a story's edition now: the full document
    while the story is public in that edition, else its tombstone. Raises
    DocumentWithheld when the full document would carry a protected legal name."""
    public = (
        event not in _TAKEN_AWAY
        and article.is_public
        and bool(getattr(article, f"headline_{language}", ""))
    )
    if not public:
        return tombstone(article, language, base_url=base_url)
    return ninjs_document(article, language, base_url=base_url, images=images)


def documents(releases: list[Release], *, base_url: str) -> dict[int, dict | None]:
    """The present document of each release's story and edition, by release id;
    None for one the output check withheld.

    Documents are kept in the cache under the page cache's generation, which every
    committed editorial change moves on (protecting someone included): a kept
    document is as current, and as checked, as one built now. Those not kept are
    built together, in a fixed number of queries however many there are.
    """
    generation = page_cache.generation()
    salt = hashlib.sha256(base_url.encode()).hexdigest()[:12]
    keys = {
        release.pk: (
            f"ninjs:doc:{generation}:{salt}:{release.article_id}:"
            f"{release.language}:{release.event}"
        )
        for release in releases
    }
    kept = cache.get_many(keys.values())
    found = {
        release.pk: kept[keys[release.pk]]
        for release in releases
        if keys[release.pk] in kept
    }
    missing = [release for release in releases if release.pk not in found]
    if not missing:
        return found
    articles = Article.objects.for_detail().in_bulk([r.article_id for r in missing])
    images = body_images(list(articles.values()))
    made = {}
    for release in missing:
        if release.article_id not in articles:  # deleted since
            found[release.pk] = made[keys[release.pk]] = gone_tombstone(
                release, base_url=base_url
            )
            continue
        try:
            document = edition_document(
                articles[release.article_id],
                release.language,
                release.event,
                base_url=base_url,
                images=images,
            )
        except DocumentWithheld:
            # Recorded by the check once; kept as withheld until a change.
            document = None
        found[release.pk] = made[keys[release.pk]] = document
    cache.set_many(made, settings.PAGE_CACHE_SECONDS)
    return found


def gone_tombstone(release: Release, *, base_url: str) -> dict:
    """The tombstone of a release whose story was deleted: canceled, at the
    release's version."""
    stand_in = Article(
        pk=release.article_id,
        version=release.version,
        updated_at=release.version_created,
        status=Status.KILLED,
    )
    return tombstone(stand_in, release.language, base_url=base_url)
