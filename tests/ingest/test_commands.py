"""The import_story and export_story management commands."""

import io
import json
import sys

import pytest
from django.core.management import call_command

from articles.models import Article
from tests.factories import SuperuserFactory

from .conftest import SAMPLES

pytestmark = pytest.mark.django_db


def run(*args, stdin: bytes | None = None, monkeypatch=None):
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = 0
    if args[0] == "import_story" and "--user" not in args:
        args = (*args, "--user", SuperuserFactory(username="chief").username)
    try:
        call_command(*args, stdout=out, stderr=err)
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_import_story_creates_drafts_from_files(newsroom_sources):
    """Each path becomes a draft, and the command says which."""
    code, out, _err = run(
        "import_story",
        str(SAMPLES / "01_ar_afp_dateline.txt"),
        str(SAMPLES / "04_en_story.txt"),
    )
    assert code == 0
    assert Article.objects.filter(status="draft").count() == 2
    assert out.count("imported as draft #") == 2


def test_json_output_has_one_object_per_input_with_the_agreed_keys(newsroom_sources):
    """--json prints the recognized parts, warnings, errors and the article id."""
    code, out, _err = run(
        "import_story", "--json", str(SAMPLES / "02_ar_reuters_two_posts.txt")
    )
    (data,) = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert {
        "headline", "language", "paragraphs", "social_posts", "attributions", "people",
        "tags", "warnings", "errors", "article_id",
    } <= set(data)  # fmt: skip
    assert data["paragraphs"] == 4
    post = data["social_posts"][0]
    assert (post["platform"], post["handle"], post["posted_at"]) == (
        "x",
        "meteo_center",
        "2024-12-12",
    )
    assert data["attributions"][0]["matched"] is True
    assert data["article_id"] == Article.objects.get().pk


def test_dry_run_writes_nothing_and_reports():
    """--dry-run recognizes and reports but creates no article."""
    code, out, _err = run(
        "import_story",
        "--dry-run",
        "--json",
        str(SAMPLES / "05_ar_kicker_no_attribution.txt"),
    )
    assert code == 0
    assert json.loads(out)["article_id"] is None
    assert Article.objects.count() == 0


def test_failing_input_exits_non_zero_with_the_line_on_stderr():
    """An impossible date fails the run; the others are still imported."""
    code, _out, err = run(
        "import_story",
        str(SAMPLES / "12_en_impossible_date.txt"),
        str(SAMPLES / "05_ar_kicker_no_attribution.txt"),
    )
    assert code == 1
    assert "12_en_impossible_date.txt: error: line 7:" in err
    assert Article.objects.count() == 1


def test_dash_reads_standard_input_bytes(monkeypatch):
    """`-` imports what is piped in, Windows-1256 included."""
    data = (SAMPLES / "09_ar_windows1256.txt").read_bytes()
    code, out, err = run("import_story", "-", stdin=data, monkeypatch=monkeypatch)
    assert code == 0, err
    assert Article.objects.get().headline_ar == "معرض للكتاب المستعمل في الساحة العامة"


def test_missing_file_and_binary_input_fail_clearly(tmp_path):
    """A missing path and a binary file each get a clear message."""
    binary = tmp_path / "photo.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    code, _out, err = run("import_story", str(tmp_path / "nope.txt"), str(binary))
    assert code == 1
    assert "cannot read" in err.lower() and "PNG image" in err


def test_export_story_prints_text_that_imports_again(newsroom_sources):
    """export_story writes the plain-text shape; an unknown id fails."""
    run("import_story", str(SAMPLES / "02_ar_reuters_two_posts.txt"))
    article = Article.objects.get()
    code, out, _err = run("export_story", str(article.pk))
    assert code == 0 and out.startswith(article.headline_ar)
    code, _out, err = run("export_story", "999999")
    assert code == 1 and "no article #999999" in err
