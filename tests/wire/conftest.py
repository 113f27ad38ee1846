"""Shared rows, samples and a local agency server for the wire tests."""

import threading
from datetime import UTC, datetime
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.utils import translation

from core.roles import EDITORS, SOURCE_MANAGERS
from tests.factories import SectionFactory, SourceFactory, member_of, picture_bytes
from wire.models import Channel

SAMPLES = Path(__file__).resolve().parent / "samples"
SAMPLE_HOST = "http://wire.example/"
# Before every sample's embargo (2 December), after its versions were written.
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def sample_bytes(name: str, base: str = SAMPLE_HOST) -> bytes:
    """A sample, its pictures' addresses pointing at `base`."""
    return (SAMPLES / name).read_bytes().replace(SAMPLE_HOST.encode(), base.encode())


@pytest.fixture(autouse=True)
def english_messages():
    """Messages are read in English here; the Arabic catalog has its own check."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def wire_root(settings, tmp_path):
    """The drop folders' root: each test's own temporary folder."""
    settings.WIRE_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def agency(db):
    return SourceFactory(
        name_ar="وكالة أنباء الواحة",
        name_en="Oasis News Agency",
        kind="agency",
        credit_as="© Oasis",
        terms="Republish with credit; pictures for news use only.",
    )


@pytest.fixture
def wire_editor(db):
    return member_of(EDITORS, username="desk-editor")


@pytest.fixture
def source_manager(db):
    return member_of(SOURCE_MANAGERS, username="sources-manager")


@pytest.fixture
def folder_channel(agency, tmp_path):
    robot = member_of(EDITORS, username="wire-robot")
    drop = tmp_path / "drop"
    drop.mkdir()
    return Channel.objects.create(
        name="Oasis drop folder",
        kind=Channel.Kind.FOLDER,
        source=agency,
        section=SectionFactory(name_en="World", name_ar="العالم"),
        folder=str(drop),
        acting_user=robot,
    )


def drop(channel: Channel, name: str, data: bytes | None = None) -> Path:
    """Deliver a file into the channel's drop folder, as the agency's upload would."""
    path = Path(channel.folder) / name
    path.write_bytes(sample_bytes(name) if data is None else data)
    return path


class AgencyServer:
    """A local HTTP server standing in for the agency: serves files set by the test."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        # Addresses that ask for credentials, and the Authorization they expect.
        self.authorization: dict[str, str] = {}
        server = self

        class Handler(SimpleHTTPRequestHandler):
            def do_GET(self):
                server.requests.append(self.path)
                body = server.files.get(self.path)
                wanted = server.authorization.get(self.path)
                if wanted and self.headers.get("Authorization") != wanted:
                    self.send_error(401)
                    return
                if body is None:
                    self.send_error(404)
                    return
                # The document's version, as agencies' servers send it.
                etag = f'"{hash(body) & 0xFFFFFFFF:x}"'
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def serve(self, path: str, body: bytes) -> str:
        self.files[path] = body
        return self.base.rstrip("/") + path


@pytest.fixture
def agency_server():
    server = AgencyServer()
    server.thread.start()
    server.files["/pictures/souq.jpg"] = picture_bytes((640, 360), "olive")
    server.files["/pictures/dam.jpg"] = picture_bytes((640, 360), "navy")
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


@pytest.fixture
def feed_channel(agency, agency_server):
    robot = member_of(EDITORS, username="wire-robot")
    return Channel.objects.create(
        name="Oasis feed",
        kind=Channel.Kind.FEED,
        source=agency,
        url=agency_server.base + "feed",
        acting_user=robot,
    )
