"""What the public sees of a story: the article and every row its page shows."""

from collections.abc import Iterable

from django.conf import settings
from django.db import models
from taggit.models import Tag

from images.models import Image

from .body import embedded_ids
from .parts import story_parts


def story_rows(
    article,
    *,
    tags: Iterable[str] | None = None,
    changed: Iterable[models.Model] = (),
    deleted: Iterable[models.Model] = (),
) -> list[models.Model]:
    """The article and every row its public page shows, as they will be once saved.

    Rows come from the story's declared parts (articles.parts), read through the
    article's related managers, so an article fetched with
    `Article.objects.for_detail()` is read without further queries.

    `tags` (names) replaces the stored tags; `changed` rows (new or edited) replace
    their stored versions and `deleted` rows drop out, so an edit is checked before
    anything is written.
    """
    changed, deleted = list(changed), list(deleted)
    pending = {(type(row), row.pk) for row in changed + deleted if row.pk}
    rows: list[models.Model] = [article]
    if article.section_id:
        rows.append(article.section)
    rows += story_images(article)
    rows += _tags(article, tags)
    for part in story_parts():
        related = [r for r in part.rows(article) if (type(r), r.pk) not in pending]
        related += [row for row in changed if isinstance(row, part.model)]
        for row in related:
            rows.append(row)
            for name in part.public_related:
                if getattr(row, row._meta.get_field(name).attname) is not None:
                    rows.append(getattr(row, name))
    return rows


def story_images(article) -> list[models.Model]:
    """The library images a story shows (its hero, then those placed in the body):
    their titles, captions, alt texts, credits and file names are public."""
    images = [article.hero_image] if article.hero_image_id else []
    placed = {
        pk
        for code, _name in settings.LANGUAGES
        for pk in embedded_ids(getattr(article, f"body_{code}", "") or "", "image")
    } - {article.hero_image_id}
    if placed:
        images += list(Image.objects.filter(pk__in=placed).order_by("pk"))
    return images


def _tags(article, names: Iterable[str] | None) -> list[Tag]:
    if names is None:
        return list(article.tags.all()) if article.pk else []
    names = list(dict.fromkeys(names))
    stored = {tag.name: tag for tag in Tag.objects.filter(name__in=names)}
    return [stored.get(name) or Tag(name=name) for name in names]
