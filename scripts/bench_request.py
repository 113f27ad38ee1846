"""In-process time of one request through the whole middleware stack, for comparing
two checkouts (or two settings) of the same page, without gunicorn or a network.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \
        .venv/bin/python scripts/bench_request.py /ar/news/1/slug/ [--label main]

Production settings (a throwaway key, Redis, plain HTTP; collectstatic into
STATIC_ROOT first), the page cache off unless PAGE_CACHE=1. After a warm-up it times
15 batches of 300 requests and prints the fastest batch, the first quartile and the
median per request: on a shared virtual machine the slow batches are the machine's,
so compare the fastest and the quartile, checkouts interleaved, several rounds.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--label", default=ROOT.name)
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--size", type=int, default=300)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    defaults = {
        "DJANGO_SETTINGS_MODULE": "newsroom.settings.prod",
        "SECRET_KEY": "bench-only-key-0a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T",
        "ALLOWED_HOSTS": "localhost",
        "DEBUG": "0",
        "CACHE_URL": "redis://127.0.0.1:6379/15",
        "TASKS_URL": "redis://127.0.0.1:6379/12",
        "MEDIA_SERVED_BY": "nginx",
        "SECURE_SSL_REDIRECT": "0",
        "PAGE_CACHE": "0",
        "STATIC_ROOT": "/tmp/bench-static",
    }
    for name, value in defaults.items():
        os.environ.setdefault(name, value)
    import django

    django.setup()
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    for _ in range(300):
        response = client.get(args.path)
    if response.status_code != 200:
        raise SystemExit(f"{args.path} answered {response.status_code}")
    batches = []
    for _ in range(args.batches):
        started = time.perf_counter()
        for _ in range(args.size):
            client.get(args.path)
        batches.append((time.perf_counter() - started) / args.size * 1e6)
    batches.sort()
    print(
        f"{args.label:12} fastest {batches[0]:7.1f} µs  "
        f"first quartile {batches[len(batches) // 4]:7.1f}  "
        f"median {statistics.median(batches):7.1f}"
    )


if __name__ == "__main__":
    main()
