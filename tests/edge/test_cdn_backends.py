"""Fastly's and Cloudflare's purge APIs, as their public documentation describes
the calls, answered by a local server that records each one."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from articles.services import article_kill, article_save
from articles.services.stories import StoryEdit
from core.roles import EDITORS
from edge.backends import CloudflareBackend, edge_backend
from edge.keys import BANNER, key_of
from tests.factories import ArticleFactory, member_of

pytestmark = pytest.mark.django_db


class Recorder(BaseHTTPRequestHandler):
    """Records each call; answers with the status the test set."""

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.server.calls.append(
            (self.path, dict(self.headers.items()), self.rfile.read(length))
        )
        body = b'{"success": true}'
        self.send_response(self.server.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def api():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    server.calls, server.status = [], 200
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


@pytest.fixture
def fastly(api, settings):
    settings.FASTLY_SERVICE_ID = "svc123"
    settings.FASTLY_API_TOKEN = "fastly-token"
    settings.FASTLY_API_URL = f"http://127.0.0.1:{api.server_address[1]}"
    return api


@pytest.fixture
def cloudflare(api, settings):
    settings.CLOUDFLARE_ZONE_ID = "zone9"
    settings.CLOUDFLARE_API_TOKEN = "cf-token"
    settings.CLOUDFLARE_API_URL = f"http://127.0.0.1:{api.server_address[1]}"
    return api


@pytest.fixture
def killed(django_capture_on_commit_callbacks):
    """A story killed by an editor, its purge sent once committed."""
    story = ArticleFactory()
    with django_capture_on_commit_callbacks(execute=True):
        article_kill(article=story, by=member_of(EDITORS), reason="حكم قضائي")
    return story


def test_a_kill_is_a_hard_fastly_purge_of_the_storys_keys(fastly, killed):
    story = killed
    (path, headers, _body), *_ = fastly.calls
    assert path == "/service/svc123/purge"
    assert headers["Fastly-Key"] == "fastly-token"
    assert key_of(story) in headers["Surrogate-Key"].split()
    assert "Fastly-Soft-Purge" not in headers


def test_an_edit_is_a_soft_fastly_purge(fastly, django_capture_on_commit_callbacks):
    story = ArticleFactory()
    story.headline_ar = "عنوان جديد"
    with django_capture_on_commit_callbacks(execute=True):
        article_save(edit=StoryEdit(article=story), by=member_of(EDITORS))
    (_path, headers, _body), *_ = fastly.calls
    assert headers["Fastly-Soft-Purge"] == "1"


def test_a_kill_is_a_cloudflare_purge_by_tags(cloudflare, killed):
    story = killed
    (path, headers, body), *_ = cloudflare.calls
    assert path == "/client/v4/zones/zone9/purge_cache"
    assert headers["Authorization"] == "Bearer cf-token"
    assert key_of(story) in json.loads(body)["tags"]


def test_cloudflare_is_sent_at_most_thirty_tags_a_call(cloudflare):
    keys = [f"article-{n}" for n in range(75)]
    CloudflareBackend(
        f"http://127.0.0.1:{cloudflare.server_address[1]}", "zone9", "cf-token"
    ).purge(keys, hard=True)
    sent = [json.loads(body)["tags"] for _path, _headers, body in cloudflare.calls]
    assert [len(tags) for tags in sent] == [30, 30, 15]
    assert sorted(tag for tags in sent for tag in tags) == sorted(keys)


def test_pages_say_their_keys_in_the_header_the_cdn_reads(cloudflare, client, settings):
    settings.PAGE_CACHE = True
    story = ArticleFactory()
    page = client.get(story.get_absolute_url())
    assert edge_backend().header == "Cache-Tag"
    assert set(page["Cache-Tag"].split(",")) == {"all", BANNER, key_of(story)}


def test_a_cdn_that_refuses_loses_no_change(
    fastly, caplog, django_capture_on_commit_callbacks
):
    fastly.status = 500
    story = ArticleFactory()
    with django_capture_on_commit_callbacks(execute=True):
        article_kill(article=story, by=member_of(EDITORS), reason="حكم قضائي")
    story.refresh_from_db()
    assert story.status == "killed"
    assert any("did not purge" in r.getMessage() for r in caplog.records)
