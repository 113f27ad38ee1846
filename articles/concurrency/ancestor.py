"""The common ancestor of concurrent edits, and comparing values with it.

Values are compared in one canonical form: the body as the body editor writes it
back, text without the line endings and edge spaces a browser changes, times to the
second a form shows. The ancestor is the story's revision at the version the editor
opened; a story written outside the desk's services gets that revision from
`record_as_found` before its next save.
"""

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as _
from modeltranslation.translator import translator
from reversion.models import Version

from ..body import canonical_body
from ..models import Article
from ..revisions import (
    NOT_VERSIONED,
    Snapshot,
    register_story_models,
    revision_record,
    snapshot,
)

# Columns that are not the editor's words: the workflow, counters and bookkeeping.
_NOT_EDITED = {"id", "status", "published_at", "created_at", "created_by_id", "version"}
BODIES = {f"body_{code}" for code, _name in settings.LANGUAGES}


def content_fields() -> list[str]:
    """The story's columns an editor writes (each language's column separately)."""
    translated = translator.get_options_for_model(Article).all_fields
    return [
        f.attname
        for f in Article._meta.concrete_fields
        if f.attname not in _NOT_EDITED
        and f.name not in NOT_VERSIONED
        and f.name not in translated
    ]


def canonical(model_field: models.Field, value):
    """`value` as the form would send it back, for comparing: what a browser and
    the body editor change without anyone typing is the same either way."""
    if value is None or value == "":
        return ""
    if model_field.model is Article and model_field.attname in BODIES:
        return canonical_body(value)
    if isinstance(value, str):
        text = value.replace("\r\n", "\n").replace("\r", "\n")
        if not isinstance(model_field, models.TextField):
            text = text.replace("\n", "")  # a one-line input drops line breaks
        return "\n".join(line.rstrip() for line in text.split("\n")).strip()
    if isinstance(value, dt.datetime):
        return value.replace(microsecond=0)  # forms show whole seconds
    if isinstance(value, list | tuple):
        return [canonical(model_field, item) for item in value]
    return value


def same(name: str, a, b) -> bool:
    """Whether two values of the story's attribute `name` are the same text."""
    if a == b:
        return True  # most values are untouched: no body needs parsing then
    model_field = _article_field(name)
    return canonical(model_field, a) == canonical(model_field, b)


def _article_field(name: str) -> models.Field:
    return next(f for f in Article._meta.concrete_fields if f.attname == name)


def value_of(obj: models.Model, name: str):
    """The value of `obj`'s attribute `name` as a revision records it."""
    value = getattr(obj, name)
    return value.name if isinstance(value, models.fields.files.FieldFile) else value


def history_after(article: Article, base_version: int):
    """The story's revisions after `base_version`, oldest first, and the base."""
    register_story_models()  # reading a revision needs its models registered
    later, base = [], None
    versions = (
        Version.objects.get_for_object(article)
        .select_related("revision__user")
        .order_by("-revision__date_created", "-pk")
    )
    for version in versions:
        number = version.field_dict.get("version")
        if number is None or number <= base_version:
            base = version if number == base_version else None
            break
        later.append(version)
    return list(reversed(later)), base


def record_as_found(stored: Article) -> None:
    """Record `stored` as a revision unless its latest revision holds it.

    A story written outside the desk's services (the demo, seed_newsroom, a data
    migration, a shell) has no revision of the version editors opened; recorded
    before the next save changes it, it is the ancestor that save's and every
    concurrent one's merge is made against. Call it under the story's row lock.
    """
    register_story_models()
    latest = (
        Version.objects.get_for_object(stored)
        .order_by("-revision__date_created", "-pk")
        .first()
    )
    if latest is not None:
        recorded = latest.field_dict
        if recorded.get("version") == stored.version and all(
            same(name, recorded.get(name), value_of(stored, name))
            for name in content_fields()
        ):
            return
    revision_record(
        stored,
        by=None,
        comment=_("As found before this save (written outside the desk's forms)"),
    )


def story_at(stored: Article, version: int) -> Snapshot | None:
    """The story as it was at `version`: the stored row, or its revision."""
    if version == stored.version:
        shot = Snapshot(revision=None)
        shot.article = {name: value_of(stored, name) for name in content_fields()}
        shot.tags = sorted(stored.tags.names())
        return shot
    _later, base = history_after(stored, version)
    return snapshot(base.revision, stored) if base else None
