"""Servers a test starts as processes of their own (nginx, varnishd, gunicorn):
a free port for each, and the wait until it listens."""

import socket
import subprocess
import time


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_listening(process: subprocess.Popen, port: int, *, within: float = 20) -> None:
    """Return once `port` accepts connections; fail with the process's output if it
    stops first or `within` seconds pass."""
    deadline = time.monotonic() + within
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                output = process.stdout or process.stderr
                raise AssertionError(output.read().decode() if output else "") from None
            time.sleep(0.05)
