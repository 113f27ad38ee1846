"""The desk's story search and the story sitemap at the size of a seeded archive.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \
        .venv/bin/python scripts/bench_admin_search.py [--repeat 30] [--word WORD]

Reads the database in DATABASE_URL as it is (run seed_newsroom first), in-process
with Django's test client, the page cache off. The admin is asked as a plain
member of the Editors group (core/roles.py), `bench-editor` (created there with
no usable password), never as a superuser: what an editor waits for. Prints, for the
story changelist searched for a word in nearly every story (Arabic "في"), a common
one, a rare one and none, and for each page of the story sitemap: p50 / p95 in ms,
the queries, and how many stories each search matched. With --explain, the plan of
the changelist's query for each word.
"""

import argparse
import os
import statistics
import time
from urllib.parse import quote

from benchkit import ROOT, bench_user, setup_django, timed_page  # beside this file

# In nearly every story of the seed (90%: "قبل" is read by the trigram index, "في" is
# too short for it), in ~6%, in ~1%, and the list unsearched.
WORDS = ["قبل", "في", "الدوحة", "مستشفى", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--word", action="append", help="search for this word")
    parser.add_argument("--explain", action="store_true")
    parser.add_argument(
        "--also", default="", help="more of the changelist's query string, e.g. o=1"
    )
    parser.add_argument("--no-sitemap", action="store_true")
    args = parser.parse_args()
    os.chdir(ROOT)
    setup_django(PAGE_CACHE="0", DEBUG="0", RATE_LIMITS="0")
    from django.db import connection
    from django.test import Client

    from arabic import search_fold
    from articles.models import Article

    editor = Client(HTTP_HOST="localhost")
    editor.force_login(bench_editor())
    reader = Client(HTTP_HOST="localhost")
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()}")
    print(f"{connection.vendor}, {Article.objects.count()} stories; {args.repeat} each")
    print(f"{'page':34} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8}  matches")
    for word in args.word or WORDS:
        query = "&".join(
            part for part in (f"q={quote(word)}" if word else "", args.also) if part
        )
        url = "/admin/articles/article/" + (f"?{query}" if query else "")
        label = f"admin search {word!r}" if word else "admin changelist"
        matches = Article.objects.filter(search_text__contains=search_fold(word))
        timed(editor, label, url, args.repeat, f"{matches.count()}")
        if args.explain and word:
            explain(editor, url)
    if not args.no_sitemap:
        for number in range(1, sitemap_pages(reader) + 1):
            url = "/sitemap-stories.xml" + (f"?p={number}" if number > 1 else "")
            timed(reader, f"story sitemap, page {number}", url, min(args.repeat, 5))


def timed(client, label: str, url: str, repeat: int, note: str = "") -> None:
    timings, queries = timed_page(client, label, url, repeat)
    timings.sort()
    p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
    print(
        f"{label:34} {statistics.median(timings):8.1f} {p95:8.1f} {queries:8d}  {note}",
        flush=True,
    )


class QueryLog:
    """An execute wrapper keeping each query's SQL and time of one request (for
    the plan of the slowest)."""

    def __init__(self) -> None:
        self.sql: list[tuple[str, float]] = []

    def __call__(self, execute, sql, params, many, context):
        begin = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            cursor = context["cursor"]
            text = cursor.mogrify(sql, params) if params is not None else sql
            if isinstance(text, bytes):
                text = text.decode()
            self.sql.append((text, time.perf_counter() - begin))


def explain(client, url: str) -> None:
    """The plan of the changelist's slowest query."""
    from django.db import connection

    queries = QueryLog()
    with connection.execute_wrapper(queries):
        client.get(url)
    sql, seconds = max(queries.sql, key=lambda query: query[1])
    print(f"    slowest query, {seconds * 1000:.1f} ms: {sql[:160]}…")
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql.replace("%", "%%"))
        for (line,) in cursor.fetchall():
            print("    " + line)


def sitemap_pages(client) -> int:
    """How many pages the story sitemap has, from the sitemap index."""
    index = client.get("/sitemap.xml").content.decode()
    return index.count("sitemap-stories.xml")


def bench_editor():
    """A plain member of the Editors group, made here if missing."""
    from django.contrib.auth.models import Group

    from core.roles import EDITORS

    user = bench_user("bench-editor", is_staff=True)
    user.groups.add(Group.objects.get(name=EDITORS))
    return user


if __name__ == "__main__":
    main()
