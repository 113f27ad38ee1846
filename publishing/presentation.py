"""How the story's page presents its parts (articles.parts declares what they are).

A part shows on the page as the story template lays it out, unless the app that
adds it registers a presentation here from its `ready()`: a template of its own,
what of its rows the page shows, what it adds to the story's schema.org data, and
which rows of other parts it shows in its own place. The domain declaration stays
free of templates and JSON-LD, and the page reads both registries.

    from publishing.presentation import Presentation, present

    present(Presentation("live_entries", template="live/entries.html", ...))
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from articles.parts import StoryPart


@dataclass(frozen=True)
class Presentation:
    """How the page shows the part reached through `relation`."""

    relation: str
    # A template that shows the part on the story's page (with `rows` in its
    # context); without one, the story template lays the part out itself.
    template: str | None = None
    # What the page shows of the part when it is not every row (the newest
    # entries of a live coverage), from the story: the part's template gets it.
    shown: Callable | None = None
    # What the part adds to the story's schema.org data, from the data, the story
    # and what `shown` gave (a live coverage makes it a LiveBlogPosting).
    schema: Callable | None = None
    # Rows of other parts the part shows itself, from what `shown` gave, as
    # {relation: {pk, …}} (a live entry's social post): the page does not show
    # them again after the story's text.
    shows: Callable | None = None

    def page_rows(self, part: StoryPart, article):
        """What the story's page shows of `part`: every row, unless it says."""
        if self.shown is not None:
            return self.shown(article)
        return part.rows(article)


_presentations: dict[str, Presentation] = {}


def present(presentation: Presentation) -> Presentation:
    """Register how the page shows a part (from an AppConfig.ready())."""
    known = _presentations.get(presentation.relation)
    if known is not None and known != presentation:
        raise ValueError(f"The part {presentation.relation!r} is presented twice.")
    _presentations[presentation.relation] = presentation
    return presentation


def presentation_of(part: StoryPart) -> Presentation:
    """How the page shows `part` (laid out by the story template, unless said)."""
    return _presentations.get(part.relation) or Presentation(part.relation)


@contextmanager
def presented(*extra: Presentation) -> Iterator[None]:
    """Presentations registered for the duration of the block (for tests)."""
    saved = dict(_presentations)
    try:
        for each in extra:
            present(each)
        yield
    finally:
        _presentations.clear()
        _presentations.update(saved)
