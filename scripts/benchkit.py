"""What the benchmark scripts share besides the load generators (loadgen.py).

Served: the site and a bare Django hello-world under gunicorn with the project's
gunicorn.conf.py, one after the other under the same load, run after run, and the
ratios of each to the hello-world. In-process: Django set up from this checkout, a
page timed with its queries counted, the benchmark's accounts.

The scripts import it from beside them (`from benchkit import ...`); no benchmark
script imports another.
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
from dataclasses import dataclass, field, replace
from pathlib import Path

from loadgen import choose

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HELLO = "hello-world"
CACHE_URL = "redis://127.0.0.1:6379/15"

HELLO_VIEW = """
from django.http import HttpResponse
from django.urls import path


def hello(request):
    return HttpResponse("Hello, world")


urlpatterns = [path("", hello)]
"""

# ---------------------------------------------------------------- in-process


def setup_django(**env: str) -> None:
    """Django set up from this checkout, development settings unless told."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.dev")
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def manage_shell(code: str) -> list[str]:
    """The words `manage.py shell -c code` prints, run by a child process so that
    this one never sets Django up with the settings the servers are given."""
    return subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "newsroom.settings.dev"},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()


class QueryCounter:
    """An execute wrapper counting the queries of one request."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def timed_page(client, label: str, url: str, repeat: int) -> tuple[list[float], int]:
    """The ms of `repeat` requests for a page once warm, and the queries of one."""
    from django.db import connection

    for _ in range(2):
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{label}: {url} answered {response.status_code}")
    counter = QueryCounter()
    # Counted by a wrapper: a request's start clears Django's own query log.
    with connection.execute_wrapper(counter):
        client.get(url)
    timings = []
    for _ in range(repeat):
        begin = time.perf_counter()
        client.get(url)
        timings.append((time.perf_counter() - begin) * 1000)
    return timings, counter.count


def bench_user(username: str, **flags: bool):
    """A benchmark's account, made with no usable password if missing."""
    from django.contrib.auth import get_user_model

    user, created = get_user_model().objects.get_or_create(
        username=username, defaults=flags
    )
    if created:
        user.set_unusable_password()
        user.save()
    return user


def bench_admin():
    """The superuser `bench-admin` the page and API benchmarks act as."""
    return bench_user("bench-admin", is_staff=True, is_superuser=True)


# ---------------------------------------------------------------- served


def site_env(static_root: Path, *, cache_url: str = CACHE_URL) -> dict[str, str]:
    """What production settings refuse to start without (newsroom/settings/prod.py),
    for the site served on the loopback."""
    return {
        "DJANGO_SETTINGS_MODULE": "newsroom.settings.prod",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "0",
        "CACHE_URL": os.environ.get("CACHE_URL", cache_url),
        "TASKS_URL": os.environ.get("TASKS_URL", "redis://127.0.0.1:6379/12"),
        # Production settings ask who serves uploads; the benchmarks load none.
        "MEDIA_SERVED_BY": "nginx",
        # Plain HTTP on the loopback: no TLS proxy in front to redirect to.
        "SECURE_SSL_REDIRECT": "0",
        "STATIC_ROOT": str(static_root),
    }


def collectstatic(env: dict[str, str]) -> None:
    """Production settings serve static files from a collected manifest."""
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def make_hello_project(folder: Path) -> None:
    """`django-admin startproject hello`, one view, debug off, any host."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [PYTHON, "-m", "django", "startproject", "hello", str(folder)], check=True
    )
    (folder / "hello" / "urls.py").write_text(HELLO_VIEW)
    settings = folder / "hello" / "settings.py"
    text = settings.read_text().replace("DEBUG = True", "DEBUG = False")
    settings.write_text(text.replace("ALLOWED_HOSTS = []", "ALLOWED_HOSTS = ['*']"))


def start_gunicorn(app: str, folder: Path, port: int, env: dict) -> subprocess.Popen:
    """gunicorn with the project's gunicorn.conf.py, once it accepts connections."""
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


def add_serve_arguments(
    parser: argparse.ArgumentParser, *, seconds: int, connections: int, runs: int
) -> None:
    """The options every `serve` mode reads, with the script's own defaults."""
    parser.add_argument("--seconds", type=int, default=seconds)
    parser.add_argument("--connections", type=int, default=connections)
    parser.add_argument(
        "--runs",
        type=int,
        default=runs,
        help="runs of them all in turn, each run's ratios read together",
    )
    parser.add_argument(
        "--python-client", action="store_true", help="do not use wrk even if found"
    )


@dataclass(frozen=True)
class Page:
    """A page to load, and what its server's environment adds to the site's."""

    label: str
    path: str
    env: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    app: str = "newsroom.wsgi"
    folder: Path = ROOT


def beside_hello(
    pages: list[Page],
    args: argparse.Namespace,
    *,
    row: str,
    cache_url: str = CACHE_URL,
) -> list[dict[str, dict]]:
    """The site's pages and a bare hello-world served side by side (see
    side_by_side), from a temporary folder holding the hello-world project and the
    site's collected static files, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="bench-hello-"))
    try:
        make_hello_project(folder / "hello-project")
        env = site_env(folder / "static", cache_url=cache_url)
        collectstatic(env)
        hello = Page(
            HELLO,
            "/",
            # It names its own settings: this process's environment may name the
            # site's.
            {"DJANGO_SETTINGS_MODULE": "hello.settings"},
            app="hello.wsgi",
            folder=folder / "hello-project",
        )
        served = [replace(page, env={**env, **page.env}) for page in pages]
        return side_by_side([hello, *served], args, row=row)
    finally:
        shutil.rmtree(folder)


def side_by_side(
    served: list[Page], args: argparse.Namespace, *, row: str
) -> list[dict[str, dict]]:
    """Each of `args.runs` runs loads each of `served` in turn, the hello-world
    among them, and prints a `row` for each; returns every run's reports by label.

    Each run measures all in turn, so a shared machine's slow minute weighs on the
    hello-world as on the site; the ratios are read per run. `row` is a format
    string of number, label, ratio, load (os.getloadavg()) and the report's rps,
    p50, p95 and errors."""
    load = choose(args.python_client)
    every = []
    for number in range(1, args.runs + 1):
        results = {}
        for page in served:
            port = free_port()
            process = start_gunicorn(page.app, page.folder, port, page.env)
            try:
                url = f"http://127.0.0.1:{port}{page.path}"
                # A warm-up first: imports, caches.
                load(url, 2, args.connections, page.headers)
                results[page.label] = load(
                    url, args.seconds, args.connections, page.headers
                )
            finally:
                stop(process)
        base = results[HELLO]["rps"]
        for label, report in results.items():
            ratio = report["rps"] / base
            line = row.format(
                number=number, label=label, ratio=ratio, load=os.getloadavg(), **report
            )
            print(line, flush=True)
        every.append(results)
    return every


def ratios_to_hello(every: list[dict[str, dict]]) -> dict[str, list[float]]:
    """Per label, each run's requests/s over the hello-world's in the same run."""
    return {
        label: [run[label]["rps"] / run[HELLO]["rps"] for run in every]
        for label in every[0]
    }


def print_medians(every: list[dict[str, dict]]) -> None:
    """Per page: the median of the runs' ratios, and the best rate of each page over
    the runs against the hello-world's best (as timeit keeps the fastest time: a
    run can only be slowed by the machine, never sped up)."""
    best_hello = max(run[HELLO]["rps"] for run in every)
    print(f"over {len(every)} runs:      median ratio (range)        best req/s  ratio")
    for label, ratios in ratios_to_hello(every).items():
        best = max(run[label]["rps"] for run in every)
        spread = f"({min(ratios):.1%}–{max(ratios):.1%})"
        print(
            f"    {label:20} {statistics.median(ratios):7.1%} {spread:17} "
            f"{best:9.1f} {best / best_hello:6.1%}"
        )
