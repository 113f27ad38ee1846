"""The public stories that carry a protected name, for protecting someone in one
step (registered with identity.protection from ArticlesConfig.ready())."""

from collections.abc import Iterator
from functools import partial

from identity.gate import IdentityGate
from identity.protection import Exposure

from .exposure import story_rows
from .models import Article, Status
from .parts import story_parts
from .services.stories import article_withdraw_to_protect


def public_story_exposures(gate: IdentityGate) -> Iterator[Exposure]:
    """Every published story, scheduled ones included, whose page would show one
    of `gate`'s spellings, read in chunks with their related rows prefetched."""
    stories = (
        Article.objects.filter(status=Status.PUBLISHED)
        .for_detail()
        # The parts the page reads apart are read whole here, with every story.
        .prefetch_related(*[p.prefetch() for p in story_parts(prefetched=False)])
    )
    for article in stories.iterator(chunk_size=500):
        leaks = gate.leaks(story_rows(article))
        if leaks:
            withdraw = partial(article_withdraw_to_protect, article=article)
            yield Exposure(article, leaks, withdraw)
