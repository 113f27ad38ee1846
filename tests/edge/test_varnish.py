"""A real Varnish with the xkey module (deploy/varnish/default.vcl) in front of the
app: pages are kept by their keys, and a change purges them once committed.

Without varnishd the tests are skipped, unless REQUIRE_VARNISH=1 (set by .ci/run).
"""

import http.client
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from articles.services import article_kill, article_save
from articles.services.stories import StoryEdit
from core.roles import EDITORS
from tests.factories import ArticleFactory, member_of
from tests.processes import free_port, wait_listening

VCL = Path(__file__).resolve().parents[2] / "deploy" / "varnish" / "default.vcl"
VARNISHD = shutil.which("varnishd") or "/usr/sbin/varnishd"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def varnish(live_server, tmp_path, settings):
    """varnishd in front of the test's live server, the app told to purge it."""
    if not Path(VARNISHD).exists():
        if os.environ.get("REQUIRE_VARNISH") == "1":
            pytest.fail("varnishd is not installed (REQUIRE_VARNISH=1)", pytrace=False)
        pytest.skip("varnishd is not installed (apt install varnish varnish-modules)")
    app_port = live_server.url.rsplit(":", 1)[1]
    vcl = tmp_path / "default.vcl"
    vcl.write_text(VCL.read_text().replace('.port = "8000";', f'.port = "{app_port}";'))
    port = free_port()
    process = subprocess.Popen(
        [
            VARNISHD,
            "-F",
            "-j",
            "none",
            "-n",
            str(tmp_path / "work"),
            "-a",
            f"127.0.0.1:{port}",
            "-f",
            str(vcl),
            "-s",
            "malloc,32m",
            "-T",
            "none",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    wait_listening(process, port)
    settings.PAGE_CACHE = True
    settings.EDGE_PURGE_URLS = [url]
    yield url
    process.terminate()
    process.wait(timeout=10)


def get(url: str) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_a_page_is_kept_by_the_edge(varnish):
    story = ArticleFactory()
    first = get(varnish + story.get_absolute_url())
    again = get(varnish + story.get_absolute_url())
    assert (first[0], first[1]["X-Cache"]) == (200, "miss")
    assert (again[0], again[1]["X-Cache"]) == (200, "hit")
    assert "xkey" not in {name.lower() for name in again[1]}


def test_a_killed_story_is_gone_from_the_edge_once_committed(varnish):
    editor = member_of(EDITORS)
    story = ArticleFactory()
    address = varnish + story.get_absolute_url()
    get(address)
    assert get(address)[1]["X-Cache"] == "hit"
    article_kill(article=story, by=editor, reason="حكم قضائي")
    status, headers, _body = get(address)
    assert (status, headers["X-Cache"]) == (410, "miss")


def test_an_edit_reaches_the_edge_with_the_stale_page_served_meanwhile(varnish):
    """A soft purge: the edge answers the old page while it fetches the new one
    (no reader waits on the origin during a spike), then the new one."""
    editor = member_of(EDITORS)
    story = ArticleFactory(headline_ar="عنوان أول")
    address = varnish + story.get_absolute_url()
    get(address)
    story.headline_ar = "عنوان ثان"
    article_save(edit=StoryEdit(article=story), by=editor)
    status, headers, _body = get(address)
    assert (status, headers["X-Cache"]) == (200, "hit")
    deadline = time.monotonic() + 5
    while "عنوان ثان" not in get(address)[2]:
        assert time.monotonic() < deadline, "the edge kept the old page"
        time.sleep(0.1)


def purge_from(varnish: str, source: str, **headers) -> int:
    host, port = varnish.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(
        host, int(port), timeout=5, source_address=(source, 0)
    )
    connection.request("PURGE", "/", headers=headers)
    return connection.getresponse().status


def test_only_the_app_servers_may_purge(varnish):
    """A purge from an address outside the VCL's list is refused; from the app's
    own, one without keys is refused for what it is."""
    assert purge_from(varnish, "127.0.0.2", **{"xkey-purge": "all"}) == 403
    assert purge_from(varnish, "127.0.0.1") == 400
    assert purge_from(varnish, "127.0.0.1", **{"xkey-purge": "all"}) == 200


def test_an_edge_that_does_not_answer_loses_no_change(settings, caplog):
    """The kill commits; the failed purge is logged as an error and put on the
    task queue to be tried again."""
    settings.EDGE_PURGE_URLS = [f"http://127.0.0.1:{free_port()}"]
    story = ArticleFactory()
    article_kill(article=story, by=member_of(EDITORS), reason="حكم قضائي")
    story.refresh_from_db()
    assert story.status == "killed"
    failures = [r for r in caplog.records if r.levelname == "ERROR"]
    assert any("did not purge" in r.getMessage() for r in failures)
    assert any("edge purge" in r.getMessage() for r in failures)
