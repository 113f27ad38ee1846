"""Request ids on responses and log lines; JSON logs and Sentry under production."""

import gzip
import io
import json
import logging
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.test import Client

from core.logs import JsonFormatter, OutageFilter, RequestIdFilter, Throttle
from tests.core.test_faults import closed_port, database_unreachable
from tests.newsroom.test_settings import PROD_ENV, ROOT

pytestmark = pytest.mark.django_db


@pytest.fixture
def log_lines():
    """The JSON lines the root logger writes during the test."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logging.getLogger().addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    logging.getLogger().removeHandler(handler)


def test_every_response_carries_a_new_request_id(client):
    """Without an id from the proxy, each response gets a fresh one."""
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]
    assert len(first) == 32 and first != second


def test_the_proxys_request_id_is_kept(client):
    """An id sent in X-Request-ID is used for the request and sent back."""
    response = client.get("/healthz", HTTP_X_REQUEST_ID="edge-7f3a.42")
    assert response["X-Request-ID"] == "edge-7f3a.42"


@pytest.mark.parametrize(
    "sent", ["forged\nlog line", "x" * 500, "<script>"], ids=["newline", "long", "tag"]
)
def test_a_malformed_request_id_is_replaced(client, sent):
    """An id that could forge or flood log lines is replaced by a new one."""
    response = client.get("/healthz", HTTP_X_REQUEST_ID=sent)
    assert response["X-Request-ID"] != sent
    assert len(response["X-Request-ID"]) == 32


def test_log_lines_written_during_a_request_carry_its_id(client, log_lines):
    """A warning logged inside a view names the request it was written for."""
    with database_unreachable():
        client.get("/healthz", HTTP_X_REQUEST_ID="probe-1")
    lines = [line for line in log_lines() if line["logger"] == "core.faults"]
    assert lines and lines[0]["request_id"] == "probe-1"
    assert lines[0]["level"] == "WARNING"


def test_a_not_found_is_logged_with_the_request_id(client, log_lines):
    """django.request's 404 line, written after the middleware, has the id too."""
    client.get("/ar/no-such-page/", HTTP_X_REQUEST_ID="reader-9")
    lines = [line for line in log_lines() if line["logger"] == "django.request"]
    assert lines[0]["request_id"] == "reader-9"
    assert lines[0]["status"] == 404


def test_production_logs_one_json_object_a_line():
    """Under production settings a log record is written as JSON."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, logging; django.setup();"
            "logging.getLogger('newsroom').warning('ready %s', 1)",
        ],
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "newsroom.settings.prod",
            **PROD_ENV,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["message"] == "ready 1"
    assert line["request_id"] == "-"
    assert line["level"] == "WARNING"


class _Collector(BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        self.received.append(body)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_errors_reach_sentry_with_the_request_id_and_no_local_variables():
    """With SENTRY_DSN set, a server-side error is reported, tagged with the
    request id, without the frames' local variables."""
    sentry = HTTPServer(("127.0.0.1", 0), _Collector)
    _Collector.received = []
    thread = threading.Thread(target=sentry.serve_forever, daemon=True)
    thread.start()
    code = (
        "import django, sentry_sdk; django.setup();"
        "from django.test import Client;"
        "response = Client(raise_request_exception=False).get("
        "'/en/', HTTP_X_REQUEST_ID='reader-42', HTTP_X_FORWARDED_PROTO='https');"
        "print(response.status_code); sentry_sdk.flush(5)"
    )
    try:
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={
                "PATH": "/usr/bin:/bin",
                **PROD_ENV,
                "DJANGO_SETTINGS_MODULE": "newsroom.settings.prod",
                "ALLOWED_HOSTS": "testserver",
                "DATABASE_URL": f"postgres://nobody@127.0.0.1:{closed_port()}/none",
                "CACHE_URL": f"redis://127.0.0.1:{closed_port()}/1",
                "SENTRY_DSN": f"http://public@127.0.0.1:{sentry.server_port}/1",
                "LOG_LEVEL": "CRITICAL",
            },
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        sentry.shutdown()
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "503"
    reports = b"".join(_Collector.received).decode("utf-8", "replace")
    assert "OperationalError" in reports
    assert '"request_id":"reader-42"' in reports.replace(" ", "")
    assert '"vars"' not in reports


@pytest.fixture
def outage_clock():
    """The configured outage filter of `django.request`, on a clock the test
    moves (and with nothing held from earlier tests)."""
    [outage] = [
        f
        for f in logging.getLogger("django.request").filters
        if isinstance(f, OutageFilter)
    ]
    now = [1000.0]
    saved = outage.throttle
    outage.throttle = Throttle(30, clock=lambda: now[0])
    yield now
    outage.throttle = saved


def test_a_database_outage_is_logged_once_per_interval_not_per_request(
    log_lines, outage_clock
):
    """During an outage the first 503 is logged as an error with its traceback;
    the next ones within 30 s are held back and counted, and the first after
    them says how many there were."""
    reader = Client(raise_request_exception=False)
    with database_unreachable():
        answers = [reader.get("/ar/").status_code for _ in range(6)]
        outage_clock[0] += 31
        answers.append(reader.get("/ar/").status_code)
    assert answers == [503] * 7
    lines = [line for line in log_lines() if line["logger"] == "django.request"]
    assert len(lines) == 2
    assert all(
        line["level"] == "ERROR" and "Traceback" in line["error"] for line in lines
    )
    assert "5 more like it since the last" in lines[1]["message"]


def test_other_errors_are_logged_every_time(outage_clock):
    """Only a database outage is held back: other records pass the filter."""
    outage = OutageFilter(30)
    try:
        raise ValueError("a bug")
    except ValueError:
        records = [
            logging.LogRecord(
                "django.request", logging.ERROR, "", 0, "boom", (), sys.exc_info()
            )
            for _ in range(3)
        ]
    assert [outage.filter(record) for record in records] == [True, True, True]
