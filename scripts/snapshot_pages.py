"""Write every public page, feed and sitemap of the demo newsroom to a folder, so a
refactoring can be checked byte for byte against the code before it.

    .venv/bin/python scripts/snapshot_pages.py /tmp/before   # on the old commit
    .venv/bin/python scripts/snapshot_pages.py /tmp/after    # on the new one
    diff -r /tmp/before /tmp/after

The demo is loaded into a fresh SQLite database with the clock held at a fixed
moment, and what changes on every run (CSP nonces, CSRF tokens, file names of
renditions, the build date of empty feeds) is replaced by placeholders, so two runs
of the same code write the same files.
"""

import os
import re
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MOMENT = datetime(2026, 12, 1, tzinfo=UTC)
_VOLATILE = [
    (re.compile(r'nonce="[^"]*"'), 'nonce="-"'),
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), "csrf"),
    # An empty feed is dated by the wall clock, not by its (absent) items.
    (re.compile(r"<lastBuildDate>[^<]*</lastBuildDate>"), "<lastBuildDate/>"),
    # Renditions are stored under random names.
    (re.compile(r"/media/renditions/[\d/]+[0-9a-f]{32}\."), "/media/renditions/-."),
]
_LOC_RE = re.compile(r"<loc>https?://[^/<]+([^<]*)</loc>")


def _setup(database: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.test")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host is allowed

    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0)


def _paths(client) -> list[str]:
    """Every address the sitemaps list, and the pages no sitemap lists."""
    paths = {"/robots.txt", "/sitemap.xml", "/news-sitemap.xml"}
    for code in ("ar", "en"):
        paths |= {f"/{code}/", f"/{code}/feed/", f"/{code}/feed/atom/"}
        paths |= {f"/{code}/search/?q=%D8%A7", f"/{code}/search/?q=the"}
    index = client.get("/sitemap.xml").content.decode()
    for sitemap in _LOC_RE.findall(index):
        paths.add(sitemap)
        paths |= set(_LOC_RE.findall(client.get(sitemap).content.decode()))
    listed = list(paths)
    for path in listed:  # each list page's feeds
        if any(p in path for p in ("/section/", "/tag/", "/people/", "/sources/")):
            paths |= {f"{path}feed/"}
    return sorted(paths)


def _name(path: str) -> str:
    parts = urlsplit(path)
    name = (parts.path.strip("/") or "root").replace("/", "__")
    return name + (f"__{parts.query}" if parts.query else "")


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        mock.patch("django.utils.timezone.now", lambda: MOMENT),
    ):
        _setup(Path(tmp) / "snapshot.sqlite3")
        from django.test import Client

        client = Client()
        for path in _paths(client):
            response = client.get(path)
            text = f"{response.status_code}\n{response.content.decode()}"
            for pattern, placeholder in _VOLATILE:
                text = pattern.sub(placeholder, text)
            (out / _name(path)).write_text(text)
    print(f"{len(list(out.iterdir()))} pages written to {out}")


if __name__ == "__main__":
    main(sys.argv[1])
