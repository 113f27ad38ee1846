"""`send_webhooks --every` through a database outage: it used to exit on the first
error and stay dead. Run as production runs it (its own process), it is started
while its database's address answers nothing, keeps running, says so once, and
sweeps again as soon as the database can be reached."""

import contextlib
import socket
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from tests.queue.conftest import ROOT, database_url, free_port, process_env, unavailable

pytestmark = pytest.mark.django_db(transaction=True)


class Forwarder:
    """A TCP relay on a loopback port to the real PostgreSQL: the database
    "comes back" at the address the command was given when this starts."""

    def __init__(self, port: int, target: tuple[str, int]):
        self.target = target
        self.server = socket.create_server(("127.0.0.1", port))
        self.server.settimeout(0.2)
        self.running = True
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while self.running:
            try:
                client, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:  # closed
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            # A shutdown, not only a close: the thread relaying the other way
            # is blocked reading this socket, and a close alone would leave the
            # connection open (and the command's session on the database).
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_RDWR)
            sink.close()

    def close(self) -> None:
        """Stop, and end the relayed sessions (the test database is dropped
        after the test: no session of the command may be left on it)."""
        self.running = False
        self.server.close()
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()


def others_gone(timeout: float = 5) -> None:
    """Wait for the command's session to end: the test database is dropped
    after the test, and PostgreSQL refuses while anyone else is on it."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                "current_database() AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone() == (0,):
                return
            time.sleep(0.1)


def test_send_webhooks_keeps_running_through_a_database_outage(tmp_path, media):
    if connection.vendor != "postgresql":
        unavailable("the command's database is reached over TCP (PostgreSQL)")
    real = urlsplit(database_url())
    port = free_port()
    away = real._replace(
        netloc=real.netloc.replace(f"{real.hostname}:{real.port}", f"127.0.0.1:{port}")
    )
    out, err = tmp_path / "out", tmp_path / "err"
    with out.open("w") as stdout, err.open("w") as stderr:
        command = subprocess.Popen(
            [sys.executable, "manage.py", "send_webhooks", "--every", "1", "-v", "2"],
            cwd=ROOT,
            env=process_env(
                "", media, DATABASE_URL=urlunsplit(away), PYTHONUNBUFFERED="1"
            ),
            stdout=stdout,
            stderr=stderr,
        )
    forwarder = None
    try:
        time.sleep(6)  # several rounds fail meanwhile
        assert command.poll() is None, err.read_text()
        assert "0 deliveries made" not in out.read_text()
        forwarder = Forwarder(port, (real.hostname, real.port))
        deadline = time.monotonic() + 20
        while "0 deliveries made" not in out.read_text():
            assert time.monotonic() < deadline, err.read_text()
            time.sleep(0.1)
    finally:
        command.terminate()
        command.wait(timeout=10)
        if forwarder is not None:
            forwarder.close()
    others_gone()
    log = err.read_text()
    assert log.count("send_webhooks: a round failed") == 1
    assert "OperationalError" in log and "Traceback" in log
    assert "send_webhooks: working again" in log
