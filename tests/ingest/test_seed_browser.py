"""In Chromium: the seed story (../shared/seed/, skipped when absent), imported with
every proposal accepted and published, read in Arabic on a phone and a desktop.

Screenshots go to artifacts/seed/ (ignored by git) for people to look at. Run with
`pytest -m browser`.
"""

import pytest
from django.utils import translation

from articles.services import article_publish
from core.roles import EDITORS
from ingest.decode import text_from_bytes
from ingest.result import Confirmation
from ingest.services import story_import
from tests.browser import ARTIFACTS, log_in, screenshot
from tests.factories import SocialAccountFactory, SourceFactory, member_of

from .test_parse import SEED

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(SEED is None, reason="the shared seed story is not present"),
]


@pytest.fixture
def editor():
    """A plain member of the Editors group."""
    return member_of(EDITORS, username="desk")


@pytest.fixture
def seed_story(editor):
    """The seed, imported as proposed by a plain editor and published."""
    aawsat = SourceFactory(name_ar="الشرق الأوسط", name_en="Asharq Al-Awsat")
    SocialAccountFactory(source=aawsat, platform="x", handle="aawsat_News")
    SourceFactory(name_ar="موقع 24", name_en="24.ae", domains="24.ae")
    text = text_from_bytes(SEED.read_bytes())[0]
    preview = story_import(by=editor, text=text, dry_run=True)
    article = story_import(
        by=editor, text=text, confirmation=Confirmation.everything(preview)
    ).article
    return article_publish(article=article, by=editor)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_published_seed_reads_in_arabic_without_a_breaking_banner(
    browser, live_server, seed_story, width
):
    """Right to left, no breaking banner, the post card whole and no wider than the
    screen, its link and hashtag apart."""
    (ARTIFACTS / "seed").mkdir(parents=True, exist_ok=True)
    with translation.override("ar"):
        address = live_server.url + seed_story.get_absolute_url()
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(address)
    screenshot(page, f"seed/seed-ar-{width}")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.locator(".breaking-banner").count() == 0
    card = page.locator(".social-card")
    box = card.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    text = card.locator(".social-card__text").inner_text()
    assert "8cUb28HP1K #خاص_الشرق_الأوسط" in text and "pic.twitter.com" not in text
    context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_arabic_import_page_previews_the_seed(browser, live_server, editor, width):
    """A plain editor pastes the seed: the preview is Arabic, breaking unticked."""
    (ARTIFACTS / "seed").mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="ar")
    page = context.new_page()
    log_in(page, live_server, "desk", "pass-for-tests")
    page.goto(f"{live_server.url}/admin/articles/article/import/")
    page.fill("#id_text", text_from_bytes(SEED.read_bytes())[0])
    page.click("input[name=preview]")
    page.wait_for_selector(".ingest-preview")
    screenshot(page, f"seed/import-ar-{width}")
    assert not page.is_checked("input[name=breaking]")
    assert "منقول عن" in page.inner_text(".ingest-preview")
    context.close()
