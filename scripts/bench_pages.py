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
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from loadgen import load_python, load_wrk, percentile  # beside this file

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

HELLO_VIEW = """
from django.http import HttpResponse
from django.urls import path


def hello(request):
    return HttpResponse("Hello, world")


urlpatterns = [path("", hello)]
"""

# ---------------------------------------------------------------- serve mode


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def make_hello_project(folder: Path) -> None:
    """`django-admin startproject hello`, one view, debug off, any host."""
    subprocess.run(
        [PYTHON, "-m", "django", "startproject", "hello", str(folder)], check=True
    )
    (folder / "hello" / "urls.py").write_text(HELLO_VIEW)
    settings = folder / "hello" / "settings.py"
    text = settings.read_text().replace("DEBUG = True", "DEBUG = False")
    settings.write_text(text.replace("ALLOWED_HOSTS = []", "ALLOWED_HOSTS = ['*']"))


def start_gunicorn(app: str, folder: Path, port: int, env: dict) -> subprocess.Popen:
    process = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "gunicorn",
            "-c",
            str(ROOT / "gunicorn.conf.py"),
            "--bind",
            f"127.0.0.1:{port}",
            app,
        ],
        cwd=folder,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            if process.poll() is not None:
                raise SystemExit(process.stderr.read().decode()) from None
            time.sleep(0.2)
    stop(process)
    raise SystemExit(f"gunicorn did not start on port {port}")


def stop(process: subprocess.Popen) -> None:
    """Stop the gunicorn we started (its own process group) and wait for it."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def article_path(env: dict) -> str:
    """A recent public story with tags and people, read through the project."""
    code = (
        "from articles.models import Article;"
        "from django.db.models import Count;"
        "a = Article.objects.published().exclude(headline_ar='')"
        ".annotate(n=Count('people_named')).filter(n__gt=0).latest_first().first();"
        "print(a.pk, a.slug_ar)"
    )
    out = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return f"/ar/news/{out[-2]}/{quote(out[-1])}/"


def serve(args) -> None:
    load = load_wrk if shutil.which("wrk") and not args.python_client else load_python
    site_env = {
        "DJANGO_SETTINGS_MODULE": "newsroom.settings.prod",
        # What production settings refuse to start without (newsroom/settings/prod.py).
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "0",
        "CACHE_URL": os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/15"),
        "TASKS_URL": os.environ.get("TASKS_URL", "redis://127.0.0.1:6379/12"),
        # Production settings ask who serves uploads; the benchmark loads none.
        "MEDIA_SERVED_BY": "nginx",
        # Plain HTTP on the loopback: no TLS proxy in front to redirect to.
        "SECURE_SSL_REDIRECT": "0",
    }
    path = args.path or article_path(
        {"DJANGO_SETTINGS_MODULE": "newsroom.settings.dev"}
    )
    every = []
    folder = Path(tempfile.mkdtemp(prefix="bench-hello-"))
    try:
        make_hello_project(folder)
        # Production settings serve static files from a collected manifest.
        site_env["STATIC_ROOT"] = str(folder / "static")
        subprocess.run(
            [PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env={**os.environ, **site_env},
            check=True,
        )
        runs = [
            ("hello-world", "hello.wsgi", folder, {}, "/"),
            ("article, uncached", "newsroom.wsgi", ROOT, {"PAGE_CACHE": "0"}, path),
            ("article, cached", "newsroom.wsgi", ROOT, {"PAGE_CACHE": "1"}, path),
        ]
        # Each run measures all three in turn, so a shared machine's slow minute
        # weighs on the hello-world as on the site; the ratios are read per run.
        for number in range(1, args.runs + 1):
            results = {}
            for label, app, cwd, env, url_path in runs:
                port = free_port()
                env = {**env, **site_env} if app == "newsroom.wsgi" else env
                process = start_gunicorn(app, cwd, port, env)
                try:
                    url = f"http://127.0.0.1:{port}{url_path}"
                    load(url, 2, args.connections)  # warm-up: imports, caches
                    results[label] = load(url, args.seconds, args.connections)
                finally:
                    stop(process)
            if number == 1:
                print_header(path, load, args)
            print_serve(results, number)
            every.append(results)
    finally:
        shutil.rmtree(folder)
    if args.runs > 1:
        print_medians(every)


def print_header(path: str, load, args) -> None:
    print(f"machine: {os.cpu_count()} cores")
    print(
        f"load generator: {'wrk' if load is load_wrk else 'python threads'}, "
        f"{args.connections} connections, {args.seconds} s each; article {path}"
    )
    print(
        f"{'run':>3} {'':20} {'req/s':>9} {'ratio':>7} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'errors':>7}  load"
    )


def print_serve(results: dict, number: int) -> None:
    base = results["hello-world"]["rps"]
    load = os.getloadavg()[0]
    for label, r in results.items():
        print(
            f"{number:>3} {label:20} {r['rps']:9.1f} {r['rps'] / base:7.1%} "
            f"{r['p50']:8.1f} {r['p95']:8.1f} {r['errors']:7d}  {load:.1f}",
            flush=True,
        )


def print_medians(every: list[dict]) -> None:
    """Per page: the median of the runs' ratios, and the best rate of each page over
    the runs against the hello-world's best (as timeit keeps the fastest time: a
    run can only be slowed by the machine, never sped up)."""
    best_hello = max(run["hello-world"]["rps"] for run in every)
    print(f"over {len(every)} runs:      median ratio (range)        best req/s  ratio")
    for label in every[0]:
        ratios = [run[label]["rps"] / run["hello-world"]["rps"] for run in every]
        best = max(run[label]["rps"] for run in every)
        spread = f"({min(ratios):.1%}–{max(ratios):.1%})"
        print(
            f"    {label:20} {statistics.median(ratios):7.1%} {spread:17} "
            f"{best:9.1f} {best / best_hello:6.1%}"
        )


# ---------------------------------------------------------------- pages mode


def pages(args) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.dev")
    os.environ["PAGE_CACHE"] = "0"
    os.environ["DEBUG"] = "0"
    # One client asks for the search page dozens of times a second: timed, not
    # refused (the limiter's own cost is one cache increment).
    os.environ["RATE_LIMITS"] = "0"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    admin = Client(HTTP_HOST="localhost")
    admin.force_login(bench_admin())
    rows = []
    for label, url, who in page_urls():
        browser = admin if who == "admin" else client
        for _ in range(2):
            response = browser.get(url)
            if response.status_code != 200:
                raise SystemExit(f"{label}: {url} answered {response.status_code}")
        counter = QueryCounter()
        # Counted by a wrapper: a request's start clears Django's own query log.
        with connection.execute_wrapper(counter):
            browser.get(url)
        timings = []
        for _ in range(args.repeat):
            begin = time.perf_counter()
            browser.get(url)
            timings.append((time.perf_counter() - begin) * 1000)
        rows.append(
            (
                label,
                statistics.median(timings),
                percentile(timings, 95),
                counter.count,
                url,
            )
        )
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()}")
    print(f"{connection.vendor}, {archive_size()}; {args.repeat} requests each")
    print(f"{'page':28} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8}")
    for label, p50, p95, count, url in rows:
        print(f"{label:28} {p50:8.1f} {p95:8.1f} {count:8d}  {url}")


class QueryCounter:
    """An execute wrapper counting the queries of one request."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def bench_admin():
    from django.contrib.auth import get_user_model

    user, created = get_user_model().objects.get_or_create(
        username="bench-admin", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        user.set_unusable_password()
        user.save()
    return user


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
    serve_args.add_argument("--seconds", type=int, default=15)
    serve_args.add_argument("--connections", type=int, default=16)
    serve_args.add_argument(
        "--runs",
        type=int,
        default=5,
        help="runs of all three, each run's ratios read together (medians printed)",
    )
    serve_args.add_argument("--path", help="the page to load (default: a story)")
    serve_args.add_argument(
        "--python-client", action="store_true", help="do not use wrk even if found"
    )
    pages_args = modes.add_parser("pages", help="in-process timings at size")
    pages_args.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    serve(args) if args.mode == "serve" else pages(args)


if __name__ == "__main__":
    main()
