"""Request ids and structured logs.

Every request gets an id: the one the proxy sent in X-Request-ID (if it looks like
an id), or a new one. It is on `request.id`, in the response's X-Request-ID, and on
every log record written while the request is handled, so one line in the proxy's
log leads to every line the app wrote for it. Under production settings each log
record is one JSON object a line.
"""

import contextvars
import json
import logging
import re
import threading
import time
import uuid
from datetime import UTC, datetime

import sentry_sdk

HEADER = "X-Request-ID"
_META_KEY = "HTTP_" + HEADER.upper().replace("-", "_")
# An id from outside is trusted only if it cannot forge log lines or fill them.
_VALID_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_request_id: contextvars.ContextVar[str] = contextvars.ContextVar(
    "request_id", default="-"
)


def current_request_id() -> str:
    """The id of the request being handled in this context, or '-' outside one."""
    return _request_id.get()


def request_id(meta: dict) -> str:
    """The id of the request with these META (or WSGI environ) values: the one the
    proxy sent, if it looks like an id, else a new one."""
    # From META: request.headers builds a dict of every header first.
    sent = meta.get(_META_KEY, "")
    return sent if _VALID_ID.fullmatch(sent) else uuid.uuid4().hex


class RequestIdMiddleware:
    """Give every request an id (see the module docstring). Comes first."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.id = request_id(request.META)
        token = _request_id.set(request.id)
        # Errors reported to Sentry carry the id too (a no-op without a DSN).
        sentry_sdk.set_tag("request_id", request.id)
        try:
            response = self.get_response(request)
        finally:
            _request_id.reset(token)
        response[HEADER] = request.id
        return response


class RequestIdFilter(logging.Filter):
    """Put the current request's id on every record as `request_id`."""

    def filter(self, record: logging.LogRecord) -> bool:
        # django.request logs 4xx answers after the middleware has returned; such
        # records carry the request itself.
        request = getattr(record, "request", None)
        record.request_id = getattr(request, "id", None) or _request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request id, error."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", _request_id.get()),
        }
        status = getattr(record, "status_code", None)
        if status is not None:
            entry["status"] = status
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class Throttle:
    """At most one report per `interval` seconds for each kind of trouble, and a
    count of those held back in between (an outage fails every request alike:
    one line with its traceback says as much as a thousand).

    `admit(kind)` answers whether to report now, with how many were held back
    since the last report; it is safe across a process's threads.
    """

    def __init__(self, interval: float, clock=time.monotonic):
        self.interval = interval
        self.clock = clock
        self._lock = threading.Lock()
        self._next: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def admit(self, kind: str) -> tuple[bool, int]:
        with self._lock:
            now = self.clock()
            if now < self._next.get(kind, float("-inf")):
                self._held[kind] = self._held.get(kind, 0) + 1
                return False, 0
            self._next[kind] = now + self.interval
            return True, self._held.pop(kind, 0)


def _database_outage(record: logging.LogRecord) -> bool:
    from django.db import InterfaceError, OperationalError

    error = record.exc_info[1] if record.exc_info else None
    return isinstance(error, (OperationalError, InterfaceError))


class OutageFilter(logging.Filter):
    """Let one record of a database outage through per `interval` seconds (30) per
    process, with its traceback; the ones between are counted, and the next one
    let through says how many ("… (database unavailable: 1249 more like it since
    the last)").

    Put on the loggers that write a line per failed request (`django.request`,
    the health probe's), as a logger's filter: Sentry's logging integration then
    sees only the records let through. Records of other errors pass untouched.
    """

    def __init__(self, interval: float = 30.0, clock=time.monotonic):
        super().__init__()
        self.throttle = Throttle(interval, clock)

    def filter(self, record: logging.LogRecord) -> bool:
        if not _database_outage(record):
            return True
        kind = f"{record.name}:{type(record.exc_info[1]).__name__}"
        admitted, held = self.throttle.admit(kind)
        if admitted and held:
            message = record.getMessage()
            record.msg = "%s (database unavailable: %d more like it since the last)"
            record.args = (message, held)
        return admitted


class OutageEvents:
    """Sentry's `before_send`: as OutageFilter does for the log, one event of a
    database outage per `interval` seconds per process reaches Sentry (its Django
    integration reports every failed request itself, past the log's filters);
    other events go as they are."""

    def __init__(self, interval: float = 30.0, clock=time.monotonic):
        self.throttle = Throttle(interval, clock)

    def __call__(self, event: dict, hint: dict) -> dict | None:
        from django.db import InterfaceError, OperationalError

        error = (hint.get("exc_info") or (None, None, None))[1]
        if not isinstance(error, (OperationalError, InterfaceError)):
            return event
        admitted, held = self.throttle.admit(type(error).__name__)
        if not admitted:
            return None
        if held:
            event.setdefault("extra", {})["outage_events_held_back"] = held
        return event
