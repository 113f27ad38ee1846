#!/usr/bin/env python3
"""Restart PostgreSQL under load and report how long readers saw errors.

    .venv/bin/python scripts/fault_pg_restart.py [--seconds-after 30] [--workers 2]

Starts the app under gunicorn with the production settings (on a database of its
own, DATABASE_URL or postgres://postgres@127.0.0.1:5432/newsroom_faults, migrated
and loaded with the demo), has a few readers request pages without pause (the page
cache off, so every request needs the database), restarts the local cluster with
`pg_ctlcluster --skip-systemctl-redirect VERSION main restart`, and prints how many
requests failed, with which status, and for how many seconds. The app is never
restarted: it must reconnect by itself (CONN_HEALTH_CHECKS).

It restarts the whole local PostgreSQL server: every other connection to it is cut.
Do not run it while anything else uses that server.
"""

import argparse
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/newsroom_faults"
PATHS = ["/ar/", "/en/", "/ar/search/?q=%D8%A7%D9%84%D9%85%D9%8A%D9%86%D8%A7%D8%A1"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cluster_version() -> str:
    return sorted(os.listdir("/etc/postgresql"))[-1]


def prepare(env: dict[str, str]) -> None:
    name = env["DATABASE_URL"].rsplit("/", 1)[1]
    subprocess.run(
        ["createdb", "-h", "127.0.0.1", "-U", "postgres", name],
        capture_output=True,
    )
    manage = [PYTHON, "manage.py"]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], env=env, check=True)
    subprocess.run([*manage, "load_demo"], env=env, check=True, capture_output=True)


def collect_static(env: dict[str, str]) -> None:
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def preflight(base: str) -> None:
    """Every page must answer before anything is restarted."""
    for path in PATHS:
        try:
            urllib.request.urlopen(base + path, timeout=30)
        except urllib.error.URLError as error:
            raise SystemExit(f"{path} fails before any restart ({error})") from None


def wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    raise SystemExit(f"the app did not answer at {url}")


def reader(base: str, stop: threading.Event, results: list) -> None:
    turn = 0
    while not stop.is_set():
        path = PATHS[turn % len(PATHS)]
        turn += 1
        started = time.monotonic()
        try:
            with urllib.request.urlopen(base + path, timeout=30) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            status = 0  # no answer at all
        results.append((started, time.monotonic(), status))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds-after", type=float, default=30)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()

    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "newsroom.settings.prod",
        "DATABASE_URL": os.environ.get("DATABASE_URL", DEFAULT_DATABASE),
        "CACHE_URL": os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/14"),
        "TASKS_URL": os.environ.get("TASKS_URL", "redis://127.0.0.1:6379/12"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "PAGE_CACHE": "0",
        "LOG_LEVEL": "CRITICAL",
    }
    prepare({**env, "DJANGO_SETTINGS_MODULE": "newsroom.settings.dev"})
    collect_static(env)
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "newsroom.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(options.workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    results: list[tuple[float, float, int]] = []
    stop = threading.Event()
    try:
        wait_for(base + "/healthz")
        preflight(base)
        threads = [
            threading.Thread(target=reader, args=(base, stop, results))
            for _ in range(options.readers)
        ]
        for thread in threads:
            thread.start()
        time.sleep(3)
        restart_started = time.monotonic()
        subprocess.run(
            [
                "pg_ctlcluster",
                "--skip-systemctl-redirect",
                cluster_version(),
                "main",
                "restart",
            ],
            check=True,
        )
        restart_ended = time.monotonic()
        time.sleep(options.seconds_after)
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        server.terminate()
        server.wait(timeout=30)

    after = [r for r in results if r[1] >= restart_started]
    failed = [r for r in after if r[2] != 200]
    statuses = Counter(status for _, _, status in failed)
    print(f"requests: {len(results)} ({len(after)} from the restart on)")
    print(f"PostgreSQL restart took {restart_ended - restart_started:.2f} s")
    if not failed:
        print("errors: none")
    else:
        first, last = min(r[0] for r in failed), max(r[1] for r in failed)
        print(
            f"errors: {len(failed)} requests, by status {dict(statuses)}, "
            f"over {last - first:.2f} s"
        )
    back = [r[1] for r in after if r[2] == 200 and r[0] >= restart_ended]
    if back:
        print(f"first page served {min(back) - restart_ended:.2f} s after the restart")
    else:
        print("no page was served after the restart")
        sys.exit(1)
    slowest = max(end - start for start, end, _ in after)
    print(f"slowest answer from the restart on: {slowest:.2f} s")
    if statuses.get(500):
        sys.exit(1)


if __name__ == "__main__":
    main()
