"""What the public sees: the public fields of a row, the rows a story shows, the
fields printed side by side, and everything public at once."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from taggit.models import Tag

from images.models import Image

from ..body import embedded_ids
from ..parts import story_parts

if TYPE_CHECKING:
    from .gate import IdentityGate, Leak

# Tags are taggit's rows: their public fields, and that a story's tags are printed
# one after another, are said here rather than on the model.
_TAG_FIELDS = ("name", "slug")
_TAG_LIST_FIELDS = ("name",)


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return "\n".join(str(item) for item in value)
    if isinstance(value, models.fields.files.FieldFile):
        return value.name or ""
    return str(value)


def public_field_names(obj: models.Model) -> list[str]:
    """The attributes of `obj` that public output may show, one per language.

    Models list them in `public_fields`; translated fields expand to one attribute
    per language, since modeltranslation keeps each language in its own column.
    """
    if isinstance(obj, Tag):
        names = _TAG_FIELDS
    else:
        names = getattr(type(obj), "public_fields", ())
    fields = []
    for name in names:
        fields += _translations(obj, name) or [name]
    return fields


def _translations(obj: models.Model, name: str) -> list[str]:
    """The attributes holding field `name` in each language (none if untranslated)."""
    return [
        f"{name}_{code}"
        for code, _name in settings.LANGUAGES
        if hasattr(obj, f"{name}_{code}")
    ]


def public_texts(obj: models.Model) -> list[tuple[str, str]]:
    """(attribute, text) for every public field of `obj`."""
    return [
        (field, _text(getattr(obj, field, ""))) for field in public_field_names(obj)
    ]


def field_label(obj: models.Model, field: str) -> str:
    """A field's name as the admin shows it, with the row's kind for related rows;
    fields read together ("kicker_ar+headline_ar") are named one after another."""
    name = " + ".join(
        dict.fromkeys(_field_name(obj, each) for each in field.split("+"))
    )
    kind = str(obj._meta.verbose_name)
    if obj._meta.model_name == "article":
        return name
    return f"{kind}: {name}"


def _field_name(obj: models.Model, field: str) -> str:
    try:
        return str(obj._meta.get_field(field).verbose_name)
    except FieldDoesNotExist:  # a property such as Byline.display_name
        labels = getattr(type(obj), "public_field_labels", {})
        return str(labels.get(field, field.replace("_", " ")))


def read_together(
    objects: Iterable[models.Model],
) -> Iterator[tuple[list[models.Model], tuple[str, ...], str]]:
    """(rows, fields, their texts joined) for the fields printed side by side.

    A name split between two fields printed next to each other is read whole: a
    kicker "نزار" over a headline starting "الحلبوني". Models declare it:
    `printed_together` lists groups of a row's fields printed one after another
    (the kicker, headline and summary), `printed_as_list` the fields of its rows
    that a page prints as one list (the byline's names); a story's tags are such a
    list. Each group is read in each language.
    """
    lists: dict[type, list[models.Model]] = {}
    for obj in objects:
        for group in getattr(type(obj), "printed_together", ()):
            for fields in _by_language(obj, group):
                yield [obj], fields, " ".join(_text(getattr(obj, f)) for f in fields)
        if isinstance(obj, Tag) or getattr(type(obj), "printed_as_list", ()):
            lists.setdefault(type(obj), []).append(obj)
    for rows in lists.values():
        if len(rows) < 2:
            continue
        first = rows[0]
        names = _TAG_LIST_FIELDS if isinstance(first, Tag) else first.printed_as_list
        for fields in _by_language(first, names):
            text = " ".join(_text(getattr(row, f, "")) for row in rows for f in fields)
            yield rows, fields, text


def _by_language(obj: models.Model, group: tuple[str, ...]) -> list[tuple[str, ...]]:
    """`group`'s attributes in each language; untranslated fields in every one."""
    columns = [_translations(obj, name) or [name] for name in group]
    count = max(len(each) for each in columns)
    return list(
        dict.fromkeys(
            tuple(each[min(i, len(each) - 1)] for each in columns) for i in range(count)
        )
    )


# ------------------------------------------------------------ a story's public rows


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


# ------------------------------------------------------------ everything public


@dataclass
class Exposure:
    """Leaks found in one public story, or (article None) in a row every page shows."""

    article: models.Model | None
    leaks: list["Leak"]


def public_exposures(gate: "IdentityGate") -> list[Exposure]:
    """Where `gate`'s legal spellings appear in what the public can see or will see.

    Covers every published story, scheduled ones included, with the rows its page
    shows, and the rows of models marked `always_public` (the section menu, source
    pages). Reads stories in chunks with their related rows prefetched.
    """
    from django.apps import apps

    from ..models import Article, Status

    if not gate:
        return []
    exposures = []
    stories = (
        Article.objects.filter(status=Status.PUBLISHED)
        .for_detail()
        # The parts the page reads apart are read whole here, with every story.
        .prefetch_related(*[p.prefetch() for p in story_parts(prefetched=False)])
    )
    for article in stories.iterator(chunk_size=500):
        leaks = gate.leaks(story_rows(article))
        if leaks:
            exposures.append(Exposure(article, leaks))
    for model in apps.get_models():
        if getattr(model, "always_public", False):
            leaks = gate.leaks(model._default_manager.all())
            if leaks:
                exposures.append(Exposure(None, leaks))
    return exposures
