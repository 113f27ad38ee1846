"""In-process time of one request through the whole middleware stack, for comparing
two checkouts (or two settings) of the same page, without gunicorn or a network.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \
        .venv/bin/python scripts/bench_request.py /ar/news/1/slug/ [--label main]

Production settings (a throwaway key, Redis, plain HTTP; collectstatic into
STATIC_ROOT first), the page cache off unless PAGE_CACHE=1. After a warm-up it times
15 batches of 300 requests and prints the fastest batch, the first quartile and the
median per request, and the same process's CPU time per request (the waits on
PostgreSQL and Redis left out): on a shared virtual machine the slow batches are the
machine's, so compare the fastest and the quartile, checkouts interleaved, several
rounds.

`--wsgi` calls the WSGI application as gunicorn does (what runs in front of Django
included) rather than Django's test client; `--profile N` prints where N requests'
time goes (cProfile; PROFILE_FILE=path keeps the statistics).
"""

import argparse
import os
import statistics
import time
from pathlib import Path

from benchkit import ROOT, setup_django, site_env  # beside this file


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--label", default=ROOT.name)
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument(
        "--wsgi",
        action="store_true",
        help="call newsroom.wsgi.application as a WSGI server does (what runs "
        "before Django's request handling included), not Django's test client",
    )
    parser.add_argument(
        "--profile",
        type=int,
        metavar="N",
        help="instead of timing, profile N requests with cProfile and print the "
        "functions by their own time and by cumulative time",
    )
    args = parser.parse_args()
    os.chdir(ROOT)
    defaults = {
        **site_env(Path("/tmp/bench-static")),
        "PAGE_CACHE": "0",
    }
    for name, value in defaults.items():
        os.environ.setdefault(name, value)
    setup_django()
    get = wsgi_get(args.path) if args.wsgi else client_get(args.path)
    for _ in range(300):
        status = get()
    if status != 200:
        raise SystemExit(f"{args.path} answered {status}")
    if args.profile:
        profile(get, args.profile)
        return
    batches, cpu = [], []
    for _ in range(args.batches):
        started, used = time.perf_counter(), time.process_time()
        for _ in range(args.size):
            get()
        batches.append((time.perf_counter() - started) / args.size * 1e6)
        cpu.append((time.process_time() - used) / args.size * 1e6)
    batches.sort()
    cpu.sort()
    # This process's CPU time leaves out the waits on PostgreSQL and Redis, and
    # most of what other programs on a busy machine take from it.
    print(
        f"{args.label:12} fastest {batches[0]:7.1f} µs  "
        f"first quartile {batches[len(batches) // 4]:7.1f}  "
        f"median {statistics.median(batches):7.1f}  "
        f"CPU fastest {cpu[0]:7.1f}  median {statistics.median(cpu):7.1f}  "
        f"load {os.getloadavg()[0]:.1f}"
    )


def client_get(path: str):
    """One request through Django's test client; returns the status."""
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    return lambda: client.get(path).status_code


def wsgi_get(path: str):
    """One request through the WSGI application, as gunicorn calls it (without
    reading the request from a socket); returns the status."""
    from urllib.parse import unquote_to_bytes, urlsplit
    from wsgiref.util import setup_testing_defaults

    from newsroom.wsgi import application

    address = urlsplit(path)
    environ = {
        "REQUEST_METHOD": "GET",
        # As a WSGI server passes it: decoded, each byte a character.
        "PATH_INFO": unquote_to_bytes(address.path).decode("iso-8859-1"),
        "QUERY_STRING": address.query,
        "SCRIPT_NAME": "",
        "HTTP_HOST": "localhost",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
    }
    setup_testing_defaults(environ)
    answered = []

    def start_response(status, headers, exc_info=None):
        answered.append(int(status[:3]))

    def get():
        answered.clear()
        body = application(dict(environ), start_response)
        try:
            b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        return answered[0]

    return get


def profile(request, count: int) -> None:
    """Where the time of `count` requests goes: cProfile's top functions."""
    import cProfile
    import pstats

    # CPU time, not the clock: the waits on PostgreSQL and Redis are left out.
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(count):
        request()
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    print(f"{count} requests, {total / count * 1e6:.1f} µs each under the profiler")
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(70)
    if os.environ.get("PROFILE_FILE"):  # for pstats or snakeviz
        stats.dump_stats(os.environ["PROFILE_FILE"])


if __name__ == "__main__":
    main()
