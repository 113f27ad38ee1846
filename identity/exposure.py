"""What the public sees of a row: its public fields, and the fields printed side by
side. Models declare both (`public_fields`, `printed_together`, `printed_as_list`);
the gate reads any row through these, whichever app it belongs to."""

from collections.abc import Iterable, Iterator

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from taggit.models import Tag

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


def changed_fields(obj: models.Model) -> list[str]:
    """The public fields of `obj` holding text that differs from its stored row
    (every one holding text, for a row not stored yet)."""
    stored = None
    if obj.pk is not None:
        stored = type(obj)._base_manager.filter(pk=obj.pk).first()
    return [
        field
        for field, text in public_texts(obj)
        if text and (stored is None or _text(getattr(stored, field, "")) != text)
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
