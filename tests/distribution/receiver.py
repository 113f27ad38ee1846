"""A partner's webhook receiver of our own, for the tests: a real HTTP server on
127.0.0.1 in a thread that keeps every request and answers as told."""

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    received: list[Received] = field(default_factory=list)
    # Status codes to answer with, in turn; 200 once they run out.
    answers: list[int] = field(default_factory=list)
    headers_to_send: dict[str, str] = field(default_factory=dict)


def start_receiver() -> tuple[Receiver, ThreadingHTTPServer]:
    receiver = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length)
            receiver.received.append(
                Received(
                    self.path, {k.lower(): v for k, v in self.headers.items()}, body
                )
            )
            status = receiver.answers.pop(0) if receiver.answers else 200
            self.send_response(status)
            for name, value in receiver.headers_to_send.items():
                self.send_header(name, value)
            text = b"thanks" if status < 300 else b"not now"
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)

        def log_message(self, *args):  # keep the test output clean
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.url = f"http://127.0.0.1:{server.server_port}/hooks/newsroom"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver, server
