"""Load generators for the benchmark scripts: wrk when installed, else Python threads.

Each returns requests, seconds, requests/s, errors and p50/p95 latency in ms.
"""

import http.client
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable

# (url, seconds, connections, headers) -> the report above.
Load = Callable[[str, int, int, dict | None], dict]

WRK_REPORT = """
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format(
    '{"requests": %d, "seconds": %f, "errors": %d, "p50": %f, "p95": %f}\\n',
    summary.requests, summary.duration / 1e6, errors,
    latency:percentile(50) / 1e3, latency:percentile(95) / 1e3))
end
"""


def choose(python_client: bool = False) -> Load:
    """wrk when installed, unless the Python client is asked for."""
    return load_wrk if shutil.which("wrk") and not python_client else load_python


def load_wrk(
    url: str, seconds: int, connections: int, headers: dict | None = None
) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_REPORT)
    sent = [
        arg
        for name, value in (headers or {}).items()
        for arg in ("-H", f"{name}: {value}")
    ]
    try:
        out = subprocess.run(
            [
                "wrk",
                f"-t{min(2, connections)}",
                f"-c{connections}",
                f"-d{seconds}s",
                "-s",
                script.name,
                *sent,
                url,
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    finally:
        os.unlink(script.name)
    report = json.loads(out.strip().splitlines()[-1])
    report["rps"] = report["requests"] / report["seconds"]
    return report


def load_python(
    url: str, seconds: int, connections: int, headers: dict | None = None
) -> dict:
    """Threads each holding one keep-alive connection, asking as fast as answered."""
    host, _, rest = url.removeprefix("http://").partition("/")
    name, port = host.split(":")
    path = "/" + rest
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def worker() -> None:
        conn = http.client.HTTPConnection(name, int(port), timeout=10)
        mine = []
        while time.monotonic() < stop_at:
            begin = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers or {})
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    raise OSError(response.status)
                mine.append(time.perf_counter() - begin)
            except (OSError, http.client.HTTPException):
                with lock:
                    errors[0] += 1
                conn.close()
                conn = http.client.HTTPConnection(name, int(port), timeout=10)
        with lock:
            latencies.extend(mine)

    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    return {
        "requests": len(latencies),
        "seconds": elapsed,
        "rps": len(latencies) / elapsed,
        "errors": errors[0],
        "p50": percentile(latencies, 50) * 1000,
        "p95": percentile(latencies, 95) * 1000,
    }


def percentile(values: list[float], pct: int) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]
