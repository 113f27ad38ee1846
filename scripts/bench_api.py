"""The partners' content API's speed, two ways (figures: docs/performance.md).

    # Under gunicorn, beside a bare Django hello-world served with the same settings:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \\
        python scripts/bench_api.py serve [--seconds 15] [--connections 8] [--runs 1]

    # In-process p50/p95 and queries of the list and story endpoints:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \\
        python scripts/bench_api.py endpoints [--repeat 30]

Both read the database in DATABASE_URL as it is (seed_newsroom, then this branch's
`migrate`, which releases every published story once). They make a partner "bench
partner" there holding the rights of every source (so no story is held back from
it), with a fresh key (its earlier keys are revoked), through the services, as the
superuser `bench-admin` (no usable password) that bench_pages.py pages also uses.
"""

import argparse
import os
import statistics
import time
from urllib.parse import quote

from benchkit import (  # beside this file
    Page,
    QueryCounter,
    add_serve_arguments,
    bench_admin,
    beside_hello,
    manage_shell,
    print_medians,
    setup_django,
)
from loadgen import choose, load_wrk, percentile

PARTNER = "bench partner"
ROW = (
    "{number:>3} {label:18} {rps:9.1f} {ratio:7.1%} p50 {p50:7.1f} p95 {p95:7.1f} "
    "ms, errors {errors}, load {load[0]:.1f}"
)


def bench_key() -> str:
    """A fresh key of the bench partner (made once set up)."""
    from distribution.models import Partner
    from distribution.services import (
        partner_key_create,
        partner_key_revoke,
        partner_save,
    )
    from sources.models import Source

    admin = bench_admin()
    partner = Partner.objects.filter(name=PARTNER).first() or Partner(name=PARTNER)
    # Counted like any partner's, but never reached by the benchmark.
    partner.rate_limit = 1_000_000
    partner_save(partner=partner, by=admin, rights_sources=Source.objects.all())
    for key in partner.keys.live():
        partner_key_revoke(key=key, by=admin)
    return partner_key_create(partner=partner, by=admin)[1]


def story_path() -> str:
    """A recent story partners receive, with tags and people."""
    from django.db.models import Count

    from articles.models import Article

    story = (
        Article.objects.published()
        .exclude(headline_ar="")
        .annotate(n=Count("people_named"))
        .filter(n__gt=0)
        .latest_first()
        .first()
    )
    return f"/api/ninjs/{story.pk}/ar"


# ---------------------------------------------------------------- serve mode


def prepared() -> tuple[str, str]:
    """(key, story path), made by a child process on the database in use."""
    key, story = manage_shell(
        "import sys; sys.path.insert(0, 'scripts');"
        "from bench_api import bench_key, story_path;"
        "print(bench_key(), story_path())"
    )[-2:]
    return key, story


def serve(args) -> None:
    key, story = prepared()
    wrk = choose(args.python_client) is load_wrk
    print(f"machine: {os.cpu_count()} cores; story {story}")
    print(
        f"load generator: {'wrk' if wrk else 'python'}, "
        f"{args.connections} connections, {args.seconds} s each"
    )
    auth = {"Authorization": f"Bearer {key}"}
    endpoints = [
        Page("story", story, headers=auth),
        Page("list, 10 a page", "/api/ninjs/?limit=10", headers=auth),
        Page("list, 50 a page", "/api/ninjs/?limit=50", headers=auth),
    ]
    every = beside_hello(endpoints, args, row=ROW)
    if args.runs > 1:
        print_medians(every)


# ---------------------------------------------------------------- endpoints mode


def endpoints(args) -> None:
    setup_django(DEBUG="0", RATE_LIMITS="0")
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from articles.models import Article, Section
    from distribution.feed import encode_cursor
    from distribution.models import Release

    key = bench_key()
    client = Client(HTTP_HOST="localhost", HTTP_AUTHORIZATION=f"Bearer {key}")
    releases = Release.objects.order_by("visible_at", "pk")
    middle = releases[releases.count() // 2]
    from django.db.models import Count
    from taggit.models import Tag

    sections = Section.objects.annotate(n=Count("articles")).order_by("-n")
    section, rare = sections.first(), sections.last()
    tag = Tag.objects.annotate(n=Count("taggit_taggeditem_items")).order_by("-n")[0]
    day_ago = (timezone.now() - timezone.timedelta(days=1)).isoformat()
    urls = [
        ("list, first page (50)", "/api/ninjs/"),
        ("list, first page (10)", "/api/ninjs/?limit=10"),
        ("list, mid-log cursor (50)", f"/api/ninjs/?cursor={encode_cursor(middle)}"),
        ("list, since a day ago", f"/api/ninjs/?since={quote(day_ago)}"),
        ("list, largest section", f"/api/ninjs/?section={section.slug}"),
        # A filter few releases pass reads the log until it fills a page.
        ("list, smallest section", f"/api/ninjs/?section={rare.slug}"),
        ("list, commonest tag", f"/api/ninjs/?tag={quote(tag.slug)}"),
        ("story", story_path()),
    ]
    rows = []
    for label, url in urls:
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{label}: {url} answered {response.status_code}")
        counter = QueryCounter()
        cache.clear()
        with connection.execute_wrapper(counter):
            response = client.get(url)
        cold, warm = [], []
        for _ in range(args.repeat):
            cache.clear()  # every document built afresh
            begin = time.perf_counter()
            client.get(url)
            cold.append((time.perf_counter() - begin) * 1000)
        for _ in range(args.repeat):
            begin = time.perf_counter()
            client.get(url)  # the documents kept from the request before
            warm.append((time.perf_counter() - begin) * 1000)
        rows.append((label, cold, warm, counter.count, len(response.content)))
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()}")
    print(
        f"{connection.vendor}, {Article.objects.count()} stories, "
        f"{Release.objects.count()} releases; {args.repeat} requests each"
    )
    print(
        f"{'endpoint':28} {'built p50':>9} {'p95':>7} {'kept p50':>9} {'p95':>7} "
        f"{'queries':>7} {'KB':>6}"
    )
    for label, cold, warm, count, size in rows:
        print(
            f"{label:28} {statistics.median(cold):9.1f} {percentile(cold, 95):7.1f} "
            f"{statistics.median(warm):9.1f} {percentile(warm, 95):7.1f} "
            f"{count:7d} {size / 1024:6.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    serve_args = modes.add_parser("serve", help="gunicorn beside a hello-world")
    add_serve_arguments(serve_args, seconds=15, connections=8, runs=1)
    endpoint_args = modes.add_parser("endpoints", help="in-process timings at size")
    endpoint_args.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    serve(args) if args.mode == "serve" else endpoints(args)


if __name__ == "__main__":
    main()
