"""What a story is made of, declared once.

A story is its own row (whose public columns are `Article.public_fields`), the rows
it points at (its section, its hero image, the images its body places), its tags,
and its *parts*: rows of other models that belong to it, such as bylines, the people
it names, its social posts, attributions and corrections.

Everything that must know a story's parts reads them from here: the identity gate,
revisions, the merge of concurrent edits, restore, the page's prefetch and assembly,
feeds and the partner API. An app that adds a part registers it from its own
`AppConfig.ready()` (sources adds attributions), so this app never names another
app's relation. A relation to `Article` that is not a part (the share links of a
preview, who created the story) is declared as bookkeeping, with the reason it is
never shown: a test fails on a relation declared in neither way.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.apps import apps
from django.db import models


@dataclass(frozen=True)
class StoryPart:
    """One kind of row a story is made of.

    Which fields of the part's rows readers see is the model's own `public_fields`
    (read by the identity gate); `related` rows are read with each row, and those in
    `public_related` are shown in their own right, so the gate reads them too (a
    person named, the source credited). How the story's page shows the part is the
    page's to say (publishing.presentation), not the part's.
    """

    relation: str  # the reverse accessor on Article: "bylines"
    related: tuple[str, ...] = ()
    public_related: tuple[str, ...] = ()
    # Recorded in each revision of the story, and compared in its history.
    versioned: bool = True
    # Edited on the story's form, so concurrent edits are merged row by row.
    merged: bool = True
    # Written back by a restore (the correction ledger only grows: it is not).
    restored: bool = True
    # Sent to partners with the story.
    syndicated: bool = True
    # Read with every story (for_detail()); a part whose rows run to thousands (a
    # live coverage's entries) is read only where it is needed, whole by the gate.
    prefetched: bool = True
    # One-to-one relations of the story read with it, in its own query (whether
    # it is a live coverage), so a story without one costs the page nothing.
    selected: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not set(self.public_related) <= set(self.related):
            raise ValueError(f"{self.relation}: public_related must be read too.")

    @property
    def model(self) -> type[models.Model]:
        """The model of the part's rows."""
        return _story_model()._meta.get_field(self.relation).related_model

    def queryset(self) -> models.QuerySet:
        """The part's rows with what each one brings along."""
        rows = self.model._default_manager.all()
        return rows.select_related(*self.related) if self.related else rows

    def prefetch(self) -> models.Prefetch:
        """The part's rows for a list of stories, in one query."""
        return models.Prefetch(self.relation, queryset=self.queryset())

    def rows(self, article) -> list[models.Model]:
        """The story's rows of this part (prefetched ones when they were)."""
        if article.pk is None:
            return []
        return list(getattr(article, self.relation).all())


def _story_model() -> type[models.Model]:
    # By name from the registry: the models read this registry (the page's
    # prefetch), so it does not import them.
    return apps.get_model("articles", "Article")


# The story's own relations that are not parts, and why readers never see them.
_BOOKKEEPING: dict[str, str] = {}
# The story's forward relations whose rows its page shows, and its tags: the gate,
# revisions and the page know these by name (they are fields of Article itself).
OWN_RELATIONS = ("section", "hero_image", "tags")

_parts: dict[str, StoryPart] = {}


def register(part: StoryPart) -> StoryPart:
    """Declare `part` one of every story's parts (from an AppConfig.ready())."""
    known = _parts.get(part.relation)
    if known is not None and known != part:
        raise ValueError(f"The story part {part.relation!r} is declared twice.")
    _parts[part.relation] = part
    return part


def register_bookkeeping(relation: str, why: str) -> None:
    """Declare that the relation `relation` to Article is not a part of the story
    readers see, and why."""
    _BOOKKEEPING[relation] = why


def story_parts(**flags: bool) -> list[StoryPart]:
    """The declared parts, in the order they were registered; keyword flags
    (`versioned=True`, `merged=True`…) keep those parts that have them."""
    return [
        part
        for part in _parts.values()
        if all(getattr(part, name) == value for name, value in flags.items())
    ]


def part(relation: str) -> StoryPart:
    """The declared part reached through `relation`."""
    return _parts[relation]


def bookkeeping() -> dict[str, str]:
    """The relations to Article that are declared not to be parts, with why."""
    return dict(_BOOKKEEPING)


def undeclared_relations() -> list[str]:
    """Relations of Article declared neither as a part, an own relation nor as
    bookkeeping: each one is a place a protected name could be printed unchecked."""
    declared = {*_parts, *OWN_RELATIONS, *_BOOKKEEPING}
    return sorted(
        field.name
        for field in _story_model()._meta.get_fields(include_hidden=True)
        if field.is_relation
        and not field.name.endswith("+")
        and field.name not in declared
    )


@contextmanager
def registered(*extra: StoryPart) -> Iterator[None]:
    """Parts declared for the duration of the block (for tests of the declaration)."""
    saved = dict(_parts)
    try:
        for each in extra:
            register(each)
        yield
    finally:
        _parts.clear()
        _parts.update(saved)


def row_lists(article, **flags: bool) -> Iterator[tuple[StoryPart, list[models.Model]]]:
    """(part, the story's rows of it) for each declared part with `flags`."""
    for each in story_parts(**flags):
        yield each, each.rows(article)


def register_own_parts() -> None:
    """Declare the parts this app owns, and its relations that are not parts."""
    register(StoryPart("bylines", related=("user",)))
    register(StoryPart("people_named", related=("person",), public_related=("person",)))
    register(StoryPart("social_posts"))
    # Added through their own service and never edited: no merge, no restore.
    register(StoryPart("corrections", merged=False, restored=False))
    register_bookkeeping("created_by", "who created it; shown only in the newsroom")
    register_bookkeeping("preview_links", "share links of drafts; each is checked")
    register_bookkeeping("people", "read through the people_named part")
    register_bookkeeping("tagged_items", "taggit's link rows, read as tags")
