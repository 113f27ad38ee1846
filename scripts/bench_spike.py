"""The page cache's hit ratio during a breaking-news spike (docs/performance.md,
"Beyond one machine"): readers on 50 pages, one live entry every 10 s, one story
edit a minute, each change purging either every page (as before surrogate keys)
or only the pages showing what it touched (publishing.page_cache's keys).

    # A database with content (load_demo, or seed_newsroom), which this writes to:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \\
        python scripts/bench_spike.py [--minutes 5] [--readers-per-second 20]

Time is simulated: each simulated second, that many readers ask for one of the
pages (the live story's page, the home page and its poll weigh most), through
Django's test client with the shared page cache on Redis (db 15, emptied first)
and the worker's own copies off, so every answer says hit or miss. Changes go
through the desk's services (live_entry_add, article_save) as an editor's would.
"""

import argparse
import logging
import random
import sys
from collections import Counter

from benchkit import CACHE_URL, bench_admin, setup_django

PAGES = 50


def pages(live) -> list[str]:
    """The 50 addresses readers ask for: the live story, its poll, the home page,
    every section, then the newest stories."""
    from django.urls import reverse
    from django.utils import translation

    from articles.models import Article, Section

    with translation.override("ar"):
        urls = [
            live.get_absolute_url(),
            reverse("live:updates", kwargs={"pk": live.pk}),
            reverse("articles:home"),
        ]
        for section in Section.objects.all()[:7]:
            urls.append(section.get_absolute_url())
        newest = Article.objects.published().exclude(pk=live.pk).latest_first()
        for story in newest[: PAGES - len(urls)]:
            urls.append(story.get_absolute_url())
    return urls


def _every_page(sender, **kwargs) -> None:
    # A function of the module: signals keep only a weak reference to receivers.
    from publishing.page_cache import purge_pages

    purge_pages()


def spike(minutes: int, rate: int, purge_everything: bool) -> Counter:
    from django.core.cache import cache
    from django.test import Client

    from articles.models import Article
    from articles.services import StoryEdit, article_save
    from core import events
    from live.services import live_entry_add, live_start

    everything = "bench-spike.purge-everything"
    if purge_everything:
        events.connect_group(events.PUBLIC, _every_page, dispatch_uid=everything)
    editor = bench_admin()
    live = Article.objects.published().latest_first().first()
    if not hasattr(live, "live_coverage"):
        live_start(article=live, by=editor)
    urls = pages(live)
    # The live story, its poll and the home page draw most readers; the rest
    # fall off with their rank.
    weights = [30, 30, 20] + [10 / rank for rank in range(1, len(urls) - 2)]
    edited = list(Article.objects.published().latest_first()[:PAGES])
    chooser = random.Random(7)
    client = Client(HTTP_HOST="127.0.0.1")
    cache.clear()
    answers = Counter()
    try:
        for second in range(minutes * 60):
            for url in chooser.choices(urls, weights, k=rate):
                response = client.get(url)
                answers[response.get("X-Page-Cache", "none")] += 1
            if second % 10 == 9:
                live_entry_add(
                    article=live, by=editor, body={"ar": f"<p>تحديث {second}</p>"}
                )
            if second % 60 == 59:
                story = Article.objects.get(pk=chooser.choice(edited).pk)
                story.summary_ar = f"ملخص محدث {second}"
                article_save(edit=StoryEdit(article=story), by=editor)
    finally:
        for event in events.PUBLIC.events:
            event.disconnect(dispatch_uid=f"{everything}:{event.name}")
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=5)
    parser.add_argument("--readers-per-second", type=int, default=20)
    arguments = parser.parse_args()
    setup_django(
        PAGE_CACHE="1",
        PAGE_CACHE_LOCAL_SECONDS="0",
        CACHE_URL=CACHE_URL,
        DJANGO_SETTINGS_MODULE="newsroom.settings.dev",
    )
    logging.disable(logging.CRITICAL)  # the task queue's lines
    print(
        f"{arguments.minutes} simulated minutes, {arguments.readers_per_second} "
        f"readers a second on {PAGES} pages; a live entry every 10 s, an edit a minute"
    )
    print(f"{'purged by a change':28} {'hits':>7} {'misses':>7} {'hit ratio':>10}")
    for label, everything in (
        ("every page (before)", True),
        ("its keys' pages", False),
    ):
        answers = spike(arguments.minutes, arguments.readers_per_second, everything)
        hits, misses = answers["hit"], answers["miss"]
        ratio = hits / max(1, hits + misses)
        print(f"{label:28} {hits:7d} {misses:7d} {ratio:10.1%}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
