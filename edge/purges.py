"""What a change purges at the edge: the keys of the pages that show what it
touched (edge.keys), hard or soft.

A story's change purges its own page (and every list, feed and page that showed
it, which carry its key) and the lists it may join: its section's, its tags',
its people's and sources', the home page, the sitemaps and search, the related
stories of the pages sharing its tags or people, and, breaking, the banner. A
row stories show (a tag, a person, a source, a byline's author) purges its own
page and the pages of the stories showing it, found through the story's
declared parts (articles.parts) and relations; one every page shows (a section,
in the menu), or one whose stories cannot be listed (a picture a body places),
purges everything, softly.
"""

from django.db import models

from articles.models import Article
from articles.parts import story_parts
from core import events

from .keys import (
    BANNER,
    EVERYTHING,
    FEEDS,
    HOME,
    SEARCH,
    SITEMAPS,
    key_of,
    key_of_story,
)

# Changes whose old page must never be served again, not even while the edge
# fetches the new one.
HARD = frozenset(
    [
        events.story_killed,
        events.story_unpublished,
        events.story_withdrawn,
        events.story_corrected,
        events.story_deleted,
        events.person_protected,
    ]
)
# Changes no page shows (the wire's channels and topic mapping).
SHOWN_NOWHERE = frozenset([events.wire_settings_changed])
# Rows every page shows, or shows in ways no query lists.
_EVERYWHERE = ("section", "image")


def keys_for(instance: models.Model, *, pk: object = None) -> set[str]:
    """The keys of the pages a change to `instance` touches (`pk`: the primary key
    a deleted row had)."""
    if isinstance(instance, Article):
        if instance.pk is None and pk is not None:
            # Deleted: the lists it was on carry its key; its section's too.
            return {key_of(Article, pk), HOME, FEEDS, SITEMAPS, SEARCH}
        return story_keys(instance)
    story = getattr(instance, "article", None)
    if isinstance(story, Article):
        # A live entry: its story's page and poll, and the lists that show the
        # story's latest time.
        return {key_of(story), HOME, FEEDS}
    if instance._meta.model_name.startswith(_EVERYWHERE):
        return {EVERYTHING}
    if instance.pk is None:
        # Deleted: the stories that showed it have changed themselves.
        return {key_of(instance, pk)} if pk is not None else {EVERYTHING}
    shown_by = map(key_of_story, stories_showing(instance))
    return {key_of(instance), FEEDS, *shown_by}


def story_keys(story: Article) -> set[str]:
    """A story's page and the lists it is on, was on or may now join."""
    keys = {key_of(story), HOME, FEEDS, SITEMAPS, SEARCH}
    if story.is_breaking:
        # It may take the banner every page shows (the one there carries its key).
        keys.add(BANNER)
    if story.section_id:
        keys.add(
            key_of(Article._meta.get_field("section").related_model, story.section_id)
        )
    if story.pk is None:
        return keys
    for model, pks in _shown_rows(story):
        keys.update(key_of(model, pk) for pk in pks if pk is not None)
    return keys


def _shown_rows(story: Article):
    """(model, primary keys) of the rows with list pages a story is shown on."""
    tags = Article._meta.get_field("tags")
    yield tags.related_model, story.tags.values_list("pk", flat=True)
    for part in story_parts():
        for name in part.public_related:
            field = part.model._meta.get_field(name)
            rows = part.model._default_manager.filter(**{_story_field(part): story})
            yield field.related_model, rows.values_list(field.attname, flat=True)


def _story_field(part) -> str:
    return Article._meta.get_field(part.relation).field.name


def stories_showing(row: models.Model) -> list[int]:
    """The stories whose pages show `row`: through a relation of the story's own
    (its tags) or of one of its parts (the people it names, its sources, its
    bylines' authors)."""
    found: set[int] = set()
    for field in Article._meta.get_fields():
        if field.is_relation and field.related_model is type(row) and field.concrete:
            pks = Article.objects.filter(**{field.name: row}).values_list("pk")
            found.update(pk for (pk,) in pks)
    for part in story_parts():
        for name in part.related:
            field = part.model._meta.get_field(name)
            if field.related_model is type(row):
                rows = part.model._default_manager.filter(**{name: row})
                found.update(rows.values_list(f"{_story_field(part)}_id", flat=True))
    return sorted(found)
