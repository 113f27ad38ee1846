from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = _("Live coverage")

    def ready(self) -> None:
        from articles.parts import StoryPart, register, register_bookkeeping
        from publishing.presentation import Presentation, present
        from publishing.sitemaps import still_news

        from .reading import live_feed, placed_posts
        from .schema import live_blog_data

        # A live coverage's entries are one of the story's parts: the identity
        # gate reads every one, the page shows the pinned and newest ones
        # (articles.parts). They are written through live.services, one row at a
        # time, never on the story's form: not merged, versioned or restored
        # with it (the audit trail keeps each entry's history).
        register(
            StoryPart(
                "live_entries",
                related=("author", "post", "image"),
                public_related=("image",),
                versioned=False,
                merged=False,
                restored=False,
                syndicated=False,
                prefetched=False,
                selected=("live_coverage",),
            )
        )
        present(
            Presentation(
                "live_entries",
                template="live/entries.html",
                shown=live_feed,
                schema=live_blog_data,
                shows=placed_posts,
            )
        )
        register_bookkeeping(
            "live_coverage", "the coverage's state and times; no text of its own"
        )
        # A running coverage is news however long ago it began.
        still_news(_running)


def _running():
    from django.db.models import Q

    from .models import LiveCoverage

    return Q(
        live_coverage__state__in=[LiveCoverage.State.LIVE, LiveCoverage.State.PAUSED]
    )
