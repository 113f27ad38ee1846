"""Servers and a resolver for the outbound tests: real HTTP servers on loopback
(one that answers, one that trickles) and a DNS the test answers itself."""

import contextlib
import ipaddress
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Recorder:
    """A loopback HTTP server that answers every GET with `body` and keeps the
    paths asked for; `address` may be any of 127/8."""

    def __init__(
        self, address: str = "127.0.0.1", body: bytes = b"hello", port: int = 0
    ):
        self.requests: list[str] = []
        self.hosts: list[str] = []
        self.body = body
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                recorder.requests.append(self.path)
                recorder.hosts.append(self.headers["Host"])
                self.send_response(200)
                self.send_header("Content-Length", str(len(recorder.body)))
                self.end_headers()
                self.wfile.write(recorder.body)

            do_POST = do_GET

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer((address, port), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, host: str, path: str = "/feed") -> str:
        return f"http://{host}:{self.port}{path}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class Trickler:
    """A loopback server that sends its headers, then one byte every `every`
    seconds for `count` bytes: a slow feed holding the reader."""

    def __init__(self, every: float = 0.5, count: int = 40, body: bytes = b"["):
        self.sent = 0
        trickler = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                try:
                    for _ in range(count):
                        self.wfile.write(body)
                        self.wfile.flush()
                        trickler.sent += 1
                        time.sleep(every)
                except OSError:  # the reader hung up, as it should
                    pass

            do_POST = do_GET

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class ScriptedDNS:
    """The test's own DNS (settings.OUTBOUND_RESOLVER points at `resolve`): each
    name answers its listed answers in turn, the last one ever after; IP
    literals answer themselves. Every lookup is kept."""

    answers: dict[str, list[list[str]]] = {}
    lookups: list[str] = []

    @classmethod
    def reset(cls, answers: dict[str, list[list[str]]] | None = None) -> None:
        cls.answers = {name: list(turns) for name, turns in (answers or {}).items()}
        cls.lookups = []


def resolve(host: str, port: int) -> list[str]:
    ScriptedDNS.lookups.append(host)
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return [host]
    turns = ScriptedDNS.answers.get(host)
    if not turns:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return turns.pop(0) if len(turns) > 1 else turns[0]


# Addresses inside our own network in every form the guard must know, as URL hosts.
INTERNAL_HOSTS = [
    "127.0.0.1",
    "localhost",
    "[::1]",
    "169.254.169.254",
    "10.1.2.3",
    "172.16.5.4",
    "192.168.1.10",
    "100.64.0.1",
    "[fc00::1]",
    "[::ffff:127.0.0.1]",
    "0.0.0.0",  # noqa: S104
    "metadata.google.internal",
]


class TLSRecorder:
    """A loopback HTTPS server with a self-signed certificate for `name`, keeping
    the server name each client asked for in TLS (SNI)."""

    def __init__(self, folder, name: str):
        import ssl
        import subprocess

        cert, key = folder / "cert.pem", folder / "key.pem"
        subprocess.run(  # noqa: S603
            [  # noqa: S607
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                f"/CN={name}",
                "-addext",
                f"subjectAltName=DNS:{name}",
                "-keyout",
                str(key),
                "-out",
                str(cert),
            ],
            check=True,
            capture_output=True,
        )
        self.server_names: list[str | None] = []
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        context.sni_callback = lambda sock, server_name, ctx: self.server_names.append(
            server_name
        )
        self.recorder = Recorder()
        self.recorder.httpd.socket = context.wrap_socket(
            self.recorder.httpd.socket, server_side=True
        )
        self.port = self.recorder.port

    def stop(self) -> None:
        self.recorder.stop()


class HandshakeTrickler:
    """A loopback TCP server that starts a TLS record of 16 KB and then sends it
    one byte every `every` seconds: a handshake that never ends, each byte in
    time for a per-read timeout."""

    def __init__(self, every: float = 0.3, count: int = 60):
        self.sent = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.every, self.count = every, count
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        with contextlib.suppress(OSError):
            client, _address = self.listener.accept()
            with client:
                client.recv(4096)  # the ClientHello
                client.sendall(b"\x16\x03\x03\x40\x00")  # a 16 KB handshake record
                for _ in range(self.count):
                    client.sendall(b"\x00")
                    self.sent += 1
                    time.sleep(self.every)

    def stop(self) -> None:
        self.listener.close()
