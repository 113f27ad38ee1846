"""Revisions of stories with django-reversion: what each one holds, and reading them.

Every service that changes a story records a revision of the story, its tags and
the rows of its versioned parts (articles.parts) with the user and a comment.
Reading a revision gives a `Snapshot`, which the history page compares and the
restore service writes back.
"""

from dataclasses import dataclass, field

import reversion
from django.contrib.auth.models import AbstractBaseUser
from django.core import serializers
from django.db import models
from django.db.models import prefetch_related_objects
from reversion.models import Revision, Version
from taggit.models import Tag

from core.budget import check_budget

from .models import Article
from .parts import story_parts

# Derived or bookkeeping columns: not part of what an editor wrote.
NOT_VERSIONED = (
    "tags",
    "people",
    "search_text",
    "search_vector",
    "headline_key",
    "updated_at",
)


_FRESH_TAGS = "revision_rows_tags"


def _register(model: type[models.Model], **options) -> None:
    if not reversion.is_registered(model):
        reversion.register(model, **options)


def register_story_models() -> None:
    """Register the story, its tags and every versioned part's model.

    Run before each revision is recorded rather than once from a ready(): parts
    are declared by several apps' ready(), and a part declared later is versioned
    all the same. Each revision adds the rows itself (no `follow`), from the
    declaration.
    """
    _register(Article, exclude=NOT_VERSIONED)
    _register(Tag)
    for part in story_parts(versioned=True):
        _register(part.model)


def revision_record(
    article: Article, *, by: AbstractBaseUser | None, comment: str
) -> None:
    """Record the story as it now stands, with its rows, as one revision (`by`
    None: as found, written by nobody the desk knows)."""
    register_story_models()
    parts = story_parts(versioned=True)
    # The rows are read fresh (what was just written), one query per part, with
    # the rows each one names (without them each row's str() read its person or
    # source once more). Into attributes of their own: the caller's prefetched
    # rows, if any, are neither reused nor replaced.
    fresh = {part: f"revision_rows_{part.relation}" for part in parts}
    prefetch_related_objects(
        [article],
        *[
            models.Prefetch(part.relation, queryset=part.queryset(), to_attr=name)
            for part, name in fresh.items()
        ],
        models.Prefetch("tags", to_attr=_FRESH_TAGS),
    )
    try:
        with reversion.create_revision(manage_manually=True):
            reversion.add_to_revision(article)
            for name in fresh.values():
                for row in getattr(article, name):
                    check_budget()
                    reversion.add_to_revision(row)
            for tag in getattr(article, _FRESH_TAGS):
                reversion.add_to_revision(tag)
            reversion.set_user(by)
            reversion.set_comment(comment)
    finally:
        for name in (*fresh.values(), _FRESH_TAGS):
            delattr(article, name)


def revisions_of(article: Article) -> models.QuerySet:
    """The story's revisions, newest first, with their authors."""
    # A worker may show a story's history before it has recorded any revision.
    register_story_models()
    ids = Version.objects.get_for_object(article).values("revision_id")
    return (
        Revision.objects.filter(pk__in=ids)
        .select_related("user")
        .order_by("-date_created", "-pk")
    )


@dataclass
class Snapshot:
    """A story as one revision recorded it."""

    revision: Revision
    article: dict = field(default_factory=dict)
    # {model: {pk: (object_repr, field_dict)}} for each kind of related row
    rows: dict[type[models.Model], dict[str, tuple[str, dict]]] = field(
        default_factory=dict
    )
    tags: list[str] = field(default_factory=list)
    objects: list[models.Model] = field(default_factory=list)


def snapshot(revision: Revision, article: Article) -> Snapshot:
    """What `revision` recorded of `article` and of its rows."""
    shot = Snapshot(revision=revision)
    for version in revision.version_set.select_related("content_type"):
        model = version.content_type.model_class()
        if model is Article:
            if version.object_id == str(article.pk):
                shot.article = version.field_dict
            continue
        if model is Tag:
            shot.tags.append(version.field_dict["name"])
            continue
        if model is None or version.field_dict.get("article_id") != article.pk:
            continue
        shot.rows.setdefault(model, {})[version.object_id] = (
            version.object_repr,
            version.field_dict,
        )
        shot.objects.append(_recorded_object(version))
    shot.tags.sort()
    return shot


def _recorded_object(version: Version) -> models.Model:
    """The row as the revision recorded it, unsaved: deserialized with Django's
    serializers from what reversion stored, as reversion itself does."""
    (recorded,) = serializers.deserialize(
        version.format, version.serialized_data, ignorenonexistent=True
    )
    return recorded.object
