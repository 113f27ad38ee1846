"""Page speed, two ways (figures and how to read them: docs/performance.md).

    # Under gunicorn, beside a bare Django hello-world served with the same settings:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \
        python scripts/bench_pages.py serve [--seconds 15] [--connections 16] [--runs 5]

    # In-process timings of the heavy pages of a seeded archive (seed_newsroom):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \
        python scripts/bench_pages.py pages [--repeat 30]

`serve` builds a hello-world project (django-admin startproject plus one view) in a
temporary folder, removed afterwards, starts it and the site under gunicorn with the
project's gunicorn.conf.py, and drives each with wrk when installed (otherwise with a
Python load generator: threads holding keep-alive connections). It prints requests/s,
p50/p95 latency and errors for the hello-world, the article page uncached
(PAGE_CACHE=0) and cached, and the ratios to the hello-world.

`pages` reads the database in DATABASE_URL as it is (run seed_newsroom first), with
the page cache off, and prints p50/p95 and queries of home, section, tag, person,
source, deep listings, search, the article page and the admin's changelist, search
and change page. It creates a superuser `bench-admin` (no usable password) there.
"""

import argparse
import os
import statistics
from urllib.parse import quote

from benchkit import (  # beside this file
    Page,
    add_serve_arguments,
    bench_admin,
    beside_hello,
    manage_shell,
    print_medians,
    setup_django,
    timed_page,
)
from loadgen import choose, load_wrk, percentile

ROW = (
    "{number:>3} {label:20} {rps:9.1f} {ratio:7.1%} {p50:8.1f} {p95:8.1f} "
    "{errors:7d}  {load[0]:.1f}"
)

# ---------------------------------------------------------------- serve mode


def article_path() -> str:
    """A recent public story with tags and people, read through the project."""
    pk, slug = manage_shell(
        "from articles.models import Article;"
        "from django.db.models import Count;"
        "a = Article.objects.published().exclude(headline_ar='')"
        ".annotate(n=Count('people_named')).filter(n__gt=0).latest_first().first();"
        "print(a.pk, a.slug_ar)"
    )[-2:]
    return f"/ar/news/{pk}/{quote(slug)}/"


def serve(args) -> None:
    path = args.path or article_path()
    print_header(path, args)
    uncached = Page("article, uncached", path, {"PAGE_CACHE": "0"})
    cached = Page("article, cached", path, {"PAGE_CACHE": "1"})
    every = beside_hello([uncached, cached], args, row=ROW)
    if args.runs > 1:
        print_medians(every)


def print_header(path: str, args) -> None:
    wrk = choose(args.python_client) is load_wrk
    print(f"machine: {os.cpu_count()} cores")
    print(
        f"load generator: {'wrk' if wrk else 'python threads'}, "
        f"{args.connections} connections, {args.seconds} s each; article {path}"
    )
    print(
        f"{'run':>3} {'':20} {'req/s':>9} {'ratio':>7} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'errors':>7}  load"
    )


# ---------------------------------------------------------------- pages mode


def pages(args) -> None:
    # One client asks for the search page dozens of times a second: timed, not
    # refused (the limiter's own cost is one cache increment).
    setup_django(PAGE_CACHE="0", DEBUG="0", RATE_LIMITS="0")
    from django.db import connection
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    admin = Client(HTTP_HOST="localhost")
    admin.force_login(bench_admin())
    rows = []
    for label, url, who in page_urls():
        browser = admin if who == "admin" else client
        timings, queries = timed_page(browser, label, url, args.repeat)
        rows.append(
            (label, statistics.median(timings), percentile(timings, 95), queries, url)
        )
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()}")
    print(f"{connection.vendor}, {archive_size()}; {args.repeat} requests each")
    print(f"{'page':28} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8}")
    for label, p50, p95, count, url in rows:
        print(f"{label:28} {p50:8.1f} {p95:8.1f} {count:8d}  {url}")


def archive_size() -> str:
    from articles.models import Article
    from identity.models import Person
    from sources.models import Source

    return (
        f"{Article.objects.count()} stories, {Person.objects.count()} people, "
        f"{Source.objects.count()} sources"
    )


def page_urls() -> list[tuple[str, str, str]]:
    """(label, address, who) of every page timed, chosen from the archive."""
    from django.db.models import Count
    from django.utils import translation
    from taggit.models import Tag

    from articles.models import Article, Section
    from identity.models import Person
    from sources.models import Source

    published = Article.objects.published().available_in("ar")
    section = Section.objects.annotate(n=Count("articles")).order_by("-n").first()
    tag = Tag.objects.annotate(n=Count("taggit_taggeditem_items")).order_by("-n")[0]
    person = Person.objects.annotate(n=Count("appearances")).order_by("-n").first()
    source = Source.objects.annotate(n=Count("attributions")).order_by("-n").first()
    story = published.annotate(n=Count("people_named")).filter(n__gt=0)
    story = story.latest_first().first()
    with translation.override("ar"):
        section_url = section.get_absolute_url()
        urls = [
            # No database, little template: how slow the machine is right now.
            ("robots.txt (yardstick)", "/robots.txt", "reader"),
            ("home (ar)", "/ar/", "reader"),
            ("home (en)", "/en/", "reader"),
            ("section", section_url, "reader"),
            ("tag", f"/ar/tag/{quote(tag.slug)}/", "reader"),
            ("person", person.get_absolute_url(), "reader"),
            ("source", source.get_absolute_url(), "reader"),
            ("section ?page=250", f"{section_url}?page=250", "reader"),
        ]
        try:
            from core.pagination import cursor_for
        except ImportError:  # before keyset pages existed
            cursor_for = None
        if cursor_for:
            deep = published.filter(section=section).latest_first()[4999]
            cursor = cursor_for(deep, ("-published_at", "-pk"))
            urls.append(
                (
                    "section 5000 deep (cursor)",
                    f"{section_url}?before={cursor}",
                    "reader",
                )
            )
        urls += [
            ("search (1 word)", "/ar/search/?q=" + quote("الدوحة"), "reader"),
            ("search (2 words)", "/ar/search/?q=" + quote("مشروع المياه"), "reader"),
            ("article", story.get_absolute_url(), "reader"),
            ("admin changelist", "/admin/articles/article/", "admin"),
            ("admin search", "/admin/articles/article/?q=" + quote("الدوحة"), "admin"),
            (
                "admin change page",
                f"/admin/articles/article/{story.pk}/change/",
                "admin",
            ),
        ]
    return urls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    serve_args = modes.add_parser("serve", help="gunicorn beside a hello-world")
    add_serve_arguments(serve_args, seconds=15, connections=16, runs=5)
    serve_args.add_argument("--path", help="the page to load (default: a story)")
    pages_args = modes.add_parser("pages", help="in-process timings at size")
    pages_args.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    serve(args) if args.mode == "serve" else pages(args)


if __name__ == "__main__":
    main()
