"""Gunicorn settings: `gunicorn -c gunicorn.conf.py newsroom.wsgi`.

Workers and threads were chosen by measurement on a 2-core machine (figures and
method in docs/performance.md); override them per box with GUNICORN_WORKERS and
GUNICORN_THREADS. The benchmarks' `serve` modes (scripts/benchkit.py) serve the site
and its hello-world comparison with this file, so both run under the same settings.
"""

import os
import re
import tempfile

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# Gunicorn's control socket (for `gunicornc`) defaults to one path per user, so a
# second master on the host (a benchmark beside the site, a blue-green deploy)
# would take over the first one's. Each master gets its own, named for the address
# it binds, which no other master on the host can share.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or os.path.join(
    os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir(),
    "gunicorn-" + re.sub(r"[^A-Za-z0-9.-]+", "_", bind) + ".ctl",
)
# One worker process per core: the page work is CPU-bound Python, so more
# processes than cores only add switching.
workers = int(os.environ.get("GUNICORN_WORKERS", os.cpu_count() or 2))
# Threads let a worker overlap the time a request waits on PostgreSQL or Redis
# with another request's Python; past two they mostly wait for each other's GIL
# (measured: 2 beat 1, 3, 4 and 8 for both the cached and the rendered page).
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = "gthread"
# A worker holds at most this many connections, so kept-alive connections cannot
# all settle on one worker while the other idles (measured: with the default of
# 1,000, a benchmark's 16 connections sometimes all went to one worker, halving the
# rate; at threads × 2, connections beyond it waited in the listen queue for
# seconds). nginx in front (deploy/nginx.conf) opens one connection per request.
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", threads * 4))
# The site is imported once, in the master, before the workers are forked: a new
# worker (see max_requests) is ready at once, instead of spending a second or two
# importing while connections pile onto the others. Nothing opens a database or
# cache connection at import; each worker opens its own on first use.
preload_app = True
keepalive = 5
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
# Workers are replaced now and then, so a slow leak never builds up; counted in
# requests, so it is set for a spike: at 5,000 a worker answering 2,000 cached pages
# a second was replaced every few seconds, and starting one again cost more than a
# third of its time (docs/performance.md).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "100000"))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
