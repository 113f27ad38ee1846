"""Live coverage at breaking-news scale (figures: docs/performance.md, "Live coverage").

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_live_bench
    # A live story with 2,000 entries in that database (seed_newsroom first):
    python scripts/bench_live.py seed [--entries 2000]
    # The poll beside a bare Django hello-world, under gunicorn (as bench_pages serve):
    python scripts/bench_live.py serve [--seconds 10] [--runs 3]
    # First byte of the live story's page with the page cache off, 2,000 entries:
    python scripts/bench_live.py firstbyte [--repeat 200]
    # From an editor's save to the entry on a polling Chromium reader's screen:
    python scripts/bench_live.py latency [--poll 10] [--samples 8]

`seed` writes the entries with bulk_create (a benchmark tool, like seed_newsroom:
no service runs), then posts one more through live_entry_add. `serve` and
`latency` start the site under gunicorn with production settings and Redis, as
bench_pages does; the machine's load average is printed with every figure.
"""

import argparse
import os
import secrets
import shutil
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

from benchkit import (  # beside this file
    ROOT,
    Page,
    add_serve_arguments,
    bench_user,
    beside_hello,
    collectstatic,
    free_port,
    ratios_to_hello,
    setup_django,
    site_env,
    start_gunicorn,
    stop,
)
from loadgen import percentile

TITLE = "زلزال: تغطية مباشرة للقياس"
# A Redis database of its own (bench_pages and bench_api cache in 15).
CACHE_URL = "redis://127.0.0.1:6379/14"
ROW = (
    "{number:>3} {label:18} {rps:9.1f} req/s {ratio:7.1%}  p50 {p50:6.1f} "
    "p95 {p95:7.1f} ms  errors {errors}  "
    "load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
)


def load_average() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def live_story():
    from articles.models import Article

    story = Article.objects.filter(headline_ar=TITLE).first()
    if story is None:
        raise SystemExit("No live story: run `bench_live.py seed` first.")
    return story


# ---------------------------------------------------------------- seed


def seed(args) -> None:
    setup_django()
    from datetime import timedelta

    from django.utils import timezone

    from articles.models import Article, Status
    from live.models import LiveEntry
    from live.services import live_entry_add, live_start

    editor = bench_user("bench-live", is_superuser=True, is_staff=True)
    Article.objects.filter(headline_ar=TITLE).delete()
    story = Article.objects.create(
        headline_ar=TITLE,
        headline_en="Earthquake: live coverage for the benchmark",
        summary_ar="متابعة لحظة بلحظة.",
        body_ar="<p>ضرب زلزال المدينة فجرًا.</p>",
        status=Status.PUBLISHED,
        published_at=timezone.now() - timedelta(hours=args.entries // 60 + 1),
        language="ar",
    )
    live_start(article=story, by=editor)
    start = timezone.now() - timedelta(minutes=args.entries)
    LiveEntry.objects.bulk_create(
        LiveEntry(
            article=story,
            author=editor,
            posted_at=start + timedelta(minutes=i),
            headline_ar=f"تحديث {i}" if i % 5 == 0 else "",
            body_ar=f"<p>وصلت فرق الإنقاذ إلى الحي رقم {i}، وتتواصل عمليات البحث "
            f"تحت الأنقاض.</p><p>قال الدفاع المدني إن العدد قد يرتفع.</p>",
            body_en=f"<p>Rescue teams reached district {i}.</p>",
            is_key_event=i % 50 == 0,
            is_pinned=i in (10, 700),
        )
        for i in range(args.entries)
    )
    live_entry_add(article=story, by=editor, body={"ar": "<p>آخر تحديث.</p>"})
    count = LiveEntry.objects.filter(article=story).count()
    print(f"live story {story.pk}: {count} entries; {story.get_absolute_url()}")


# ---------------------------------------------------------------- serve


def paths() -> tuple[str, str]:
    setup_django()
    from django.urls import reverse
    from django.utils import translation

    story = live_story()
    with translation.override("ar"):
        return story.get_absolute_url(), reverse("live:updates", args=[story.pk])


def serve(args) -> None:
    page, poll = paths()
    print(f"poll {poll}, page {page}, {args.connections} connections, {args.seconds} s")
    cached, uncached = {"PAGE_CACHE": "1"}, {"PAGE_CACHE": "0"}
    loaded = [
        Page("poll, cached", poll, cached),
        Page("poll, uncached", poll, uncached),
        Page("live page, cached", page, cached),
    ]
    every = beside_hello(loaded, args, row=ROW, cache_url=CACHE_URL)
    for label, ratios in ratios_to_hello(every).items():
        print(f"median ratio {label:18} {statistics.median(ratios):7.1%}")


# ---------------------------------------------------------------- first byte


def firstbyte(args) -> None:
    """The live page with the page cache off, in-process on PostgreSQL: with its
    fragments warm (the gate's query, the cache), and rendered from the rows
    (fragments dropped before each request), and one poll rendered afresh."""
    setup_django(PAGE_CACHE="0", DEBUG="0", RATE_LIMITS="0")
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation

    from publishing.fragments import fragments_purge

    page, poll = paths()
    story = live_story()
    client = Client(HTTP_HOST="localhost")
    print(f"story {story.pk}: {story.live_entries.count()} entries; {load_average()}")
    for label, url, purge in (
        ("page, fragments warm", page, False),
        ("page, rendered from rows", page, True),
        ("poll, rendered from rows", poll, True),
    ):
        for _ in range(3):
            assert client.get(url).status_code == 200
        times = []
        for _ in range(args.repeat):
            if purge:
                fragments_purge()
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code
        with translation.override("ar"), CaptureQueriesContext(connection) as queries:
            if purge:
                fragments_purge()
            client.get(url)
        print(
            f"{label:26} p50 {statistics.median(times):6.1f} ms  "
            f"p95 {percentile(times, 95):6.1f} ms  {len(queries)} queries  "
            f"{len(response.content) // 1024} KB  {load_average()}"
        )


# ---------------------------------------------------------------- latency


def latency(args) -> None:
    """Chromium reads the live page served by gunicorn (page cache on, Redis);
    this process posts entries through live_entry_add on the same database and
    cache, and times each from the call to its text on the reader's screen."""
    folder = Path(tempfile.mkdtemp(prefix="bench-live-"))
    env = site_env(folder / "static", cache_url=CACHE_URL)
    env["LIVE_POLL_SECONDS"] = str(args.poll)
    setup_django(CACHE_URL=env["CACHE_URL"], LIVE_POLL_SECONDS=str(args.poll))
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from playwright.sync_api import sync_playwright

    from live.services import live_entry_add

    assert args.poll == settings.LIVE_POLL_SECONDS
    page_path, _poll = paths()
    story = live_story()
    editor = get_user_model().objects.get(username="bench-live")
    collectstatic(env)
    port = free_port()
    process = start_gunicorn("newsroom.wsgi", ROOT, port, {**env, "PAGE_CACHE": "1"})
    delays = []
    try:
        url = f"http://127.0.0.1:{port}{page_path}"
        urllib.request.urlopen(url).read()
        with sync_playwright() as playwright:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox"]
            )
            reader = browser.new_page(viewport={"width": 390, "height": 844})
            reader.goto(url)
            reader.wait_for_selector("#live [data-entry]")
            for sample in range(args.samples):
                text = f"قياس {sample} {secrets.token_hex(3)}"
                started = time.perf_counter()
                live_entry_add(article=story, by=editor, body={"ar": text})
                saved = time.perf_counter()
                reader.wait_for_function(
                    "t => document.getElementById('live').textContent.includes(t)",
                    arg=text,
                    timeout=(args.poll + 30) * 1000,
                    polling=50,
                )
                seen = time.perf_counter()
                delays.append((seen - started, saved - started))
                print(
                    f"sample {sample}: save {1000 * (saved - started):6.0f} ms, "
                    f"on screen after {seen - started:5.2f} s  {load_average()}",
                    flush=True,
                )
                # Posts land at a different moment of each poll's cycle.
                time.sleep(args.poll * 0.37)
            browser.close()
    finally:
        stop(process)
        shutil.rmtree(folder)
    seen = [d[0] for d in delays]
    print(
        f"poll every {args.poll} s: save to screen median "
        f"{statistics.median(seen):.2f} s, max {max(seen):.2f} s over {len(seen)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("seed")
    command.add_argument("--entries", type=int, default=2000)
    command.set_defaults(run=seed)
    command = commands.add_parser("serve")
    add_serve_arguments(command, seconds=10, connections=16, runs=3)
    command.set_defaults(run=serve)
    command = commands.add_parser("firstbyte")
    command.add_argument("--repeat", type=int, default=200)
    command.set_defaults(run=firstbyte)
    command = commands.add_parser("latency")
    command.add_argument("--poll", type=int, default=10)
    command.add_argument("--samples", type=int, default=8)
    command.set_defaults(run=latency)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
