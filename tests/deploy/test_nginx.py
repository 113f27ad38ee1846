"""deploy/nginx.conf, run by a real nginx in front of a stand-in for the app that
answers with the headers it was given.

Without nginx the tests are skipped, unless REQUIRE_NGINX=1 (set by .ci/run).
"""

import json
import os
import shutil
import subprocess
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.processes import free_port, wait_listening

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class EchoHeaders(BaseHTTPRequestHandler):
    """The app's stand-in: answers with the request headers it received."""

    def do_GET(self):
        body = json.dumps(dict(self.headers.items())).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def edge(tmp_path_factory):
    """nginx with the deployed server block, its upstream and folders local."""
    if not Path(NGINX).exists():
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail("nginx is not installed (REQUIRE_NGINX=1)", pytrace=False)
        pytest.skip("nginx is not installed (apt install nginx-light)")
    root = tmp_path_factory.mktemp("nginx")
    for folder in ("media/renditions", "static", "logs"):
        (root / folder).mkdir(parents=True)
    (root / "media" / "photo.jpg").write_bytes(b"\xff\xd8 not really a picture")
    (root / "media" / "renditions" / "photo-640.webp").write_bytes(b"RIFF")
    (root / "static" / "site.css").write_text("body{}")
    app = ThreadingHTTPServer(("127.0.0.1", 0), EchoHeaders)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    port = free_port()
    server = (
        CONFIG.read_text()
        .replace("listen 80;", f"listen 127.0.0.1:{port};")
        .replace("http://web:6081", f"http://127.0.0.1:{app.server_address[1]}")
        .replace("/srv/media/", f"{root}/media/")
        .replace("/srv/static/", f"{root}/static/")
    )
    # Run as root (CI), nginx's workers would otherwise be "nobody", who cannot
    # read pytest's private temporary folders.
    user = "user root;" if os.geteuid() == 0 else ""
    (root / "nginx.conf").write_text(
        f"{user}\npid {root}/nginx.pid;\nerror_log {root}/logs/error.log;\n"
        "events {}\nhttp {\n"
        f"include /etc/nginx/mime.types;\naccess_log off;\n"
        f"client_body_temp_path {root}/body;\nproxy_temp_path {root}/proxy;\n"
        f"{server}\n}}\n"
    )
    process = subprocess.Popen(
        [NGINX, "-p", str(root), "-c", str(root / "nginx.conf"), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
    )
    wait_listening(process, port, within=10)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)
    app.shutdown()


def get(url: str, **headers):
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310
        return response.headers, response.read()


def test_a_client_cannot_claim_https_at_the_edge(edge):
    """Over plain HTTP the app hears "http", whatever the client's header says."""
    _headers, body = get(f"{edge}/admin/", **{"X-Forwarded-Proto": "https"})
    assert json.loads(body)["X-Forwarded-Proto"] == "http"


def test_the_app_hears_the_readers_address(edge):
    _headers, body = get(f"{edge}/")
    assert json.loads(body)["X-Forwarded-For"] == "127.0.0.1"


@pytest.mark.parametrize(
    "path", ["/static/site.css", "/media/photo.jpg", "/media/renditions/photo-640.webp"]
)
def test_files_nginx_serves_carry_hsts_and_a_referrer_policy(edge, path):
    headers, _body = get(f"{edge}{path}")
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_uploads_are_sandboxed_and_renditions_kept_a_year(edge):
    original, _body = get(f"{edge}/media/photo.jpg")
    rendition, _body = get(f"{edge}/media/renditions/photo-640.webp")
    assert original["Content-Security-Policy"] == "default-src 'none'; sandbox"
    assert original["Cache-Control"] == "public, max-age=2592000"
    assert rendition["Cache-Control"] == "public, max-age=31536000, immutable"
    assert rendition["Content-Security-Policy"] == "default-src 'none'; sandbox"


def test_the_apps_answers_get_none_of_the_files_headers(edge):
    """The app sends its own HSTS and policies: nginx adds no second copy."""
    headers, _body = get(f"{edge}/")
    for name in ("Strict-Transport-Security", "Referrer-Policy", "Cache-Control"):
        assert name not in headers
