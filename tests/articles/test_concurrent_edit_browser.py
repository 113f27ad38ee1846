"""Two Editors in two browsers on one imported story (issue #20): changes in
different places (headline, summary, different paragraphs) are all kept, and saving
again puts nothing old back; a real conflict is shown side by side, in Arabic, and
"take theirs" works. Screenshots of the conflict view go to artifacts/conflict/."""

import pytest

from articles.models import Article
from core.roles import EDITORS
from ingest.decode import text_from_bytes
from ingest.services import story_import
from tests.browser import ARTIFACTS, DESKTOP, PHONE, log_in, screenshot
from tests.factories import ArticleFactory, member_of
from tests.ingest.conftest import sample_bytes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-for-tests"
AR_BODY = ".prose-editor:has(#id_body_ar) .ProseMirror[contenteditable]"


@pytest.fixture
def editors(db):
    return (
        member_of(EDITORS, username="alice", first_name="Alice"),
        member_of(EDITORS, username="bob", first_name="Bob"),
    )


@pytest.fixture
def two_browsers(browser, live_server, editors):
    """Alice's and Bob's browsers (two contexts: two sets of cookies), logged in;
    call it with a story to have it open in both."""
    contexts, pages = [], []
    for user in editors:
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        log_in(page, live_server, user.username, PASSWORD)
        contexts.append(context)
        pages.append(page)

    def open_story(story: Article):
        for page in pages:
            page.goto(f"{live_server.url}/admin/articles/article/{story.pk}/change/")
            page.locator(AR_BODY).wait_for()
        return pages

    yield open_story
    for context in contexts:
        context.close()


@pytest.fixture
def desk(two_browsers, editors):
    """A story made by the import service, open in Alice's and Bob's browsers."""
    text = text_from_bytes(sample_bytes("01_ar_afp_dateline.txt"))[0]
    story = story_import(text=text, by=editors[0]).article
    return story, *two_browsers(story)


def add_to_paragraph(page, number: int, text: str) -> None:
    """Type `text` at the end of paragraph `number` (from 1) of the Arabic body.

    The caret is put at the paragraph's end through the page's selection: "End"
    goes to the end of the line on screen, which in a wrapped paragraph is not it.
    """
    paragraph = page.locator(f"{AR_BODY} > p").nth(number - 1)
    paragraph.click()
    paragraph.evaluate(
        """p => {
            const range = document.createRange();
            range.selectNodeContents(p);
            range.collapse(false);
            const selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
        }"""
    )
    page.keyboard.type(text)


def save(page) -> None:
    page.click("input[name=_continue]")
    page.wait_for_load_state("networkidle")


def errors(page) -> list[str]:
    return page.locator(".errornote, .errorlist").all_inner_texts()


def test_edits_in_different_places_are_all_kept_and_a_resave_keeps_them(desk):
    """Alice changes the headline and the first paragraph, Bob the summary and the
    last paragraph: Bob's save merges both; saving his page again changes nothing."""
    story, alice, bob = desk
    alice.fill("#id_headline_ar", "عنوان أليس")
    add_to_paragraph(alice, 1, " أضافت أليس")
    save(alice)
    assert errors(alice) == []
    bob.fill("#id_summary_ar", "ملخص بوب\nفي سطرين")
    add_to_paragraph(bob, 3, " أضاف بوب")
    save(bob)
    assert errors(bob) == []
    story.refresh_from_db()
    assert story.headline_ar == "عنوان أليس"
    assert story.summary_ar.splitlines() == ["ملخص بوب", "في سطرين"]
    assert "بلغات متعددة. أضافت أليس</p>" in story.body_ar
    assert "خلال الأشهر الأولى. أضاف بوب</p>" in story.body_ar
    # Bob's page, saved again as it is, brings back nothing of the old story.
    save(bob)
    assert errors(bob) == []
    again = Article.objects.get(pk=story.pk)
    assert (again.headline_ar, again.body_ar) == (story.headline_ar, story.body_ar)


def test_a_real_conflict_is_shown_side_by_side_and_theirs_can_be_taken(desk):
    """Both rewrite the headline and add to the second paragraph: Bob sees both
    versions of each, takes Alice's headline, keeps his paragraph."""
    story, alice, bob = desk
    alice.fill("#id_headline_ar", "افتتاح مكتبة المدينة الكبرى بعد خمس سنوات")
    add_to_paragraph(alice, 2, " بحسب أليس")
    save(alice)
    bob.fill("#id_headline_ar", "افتتاح أكبر مكتبة عامة في دبي بعد خمس سنوات")
    add_to_paragraph(bob, 2, " بحسب بوب")
    save(bob)
    panel = bob.locator("#edit-conflicts")
    assert panel.count() == 1
    versions = panel.locator(".edit-conflict")
    assert versions.count() == 2
    assert "بحسب أليس" in versions.nth(1).inner_text()
    assert "بحسب بوب" in versions.nth(1).inner_text()
    assert bob.locator("#id_headline_ar").input_value().startswith("افتتاح أكبر")
    (ARTIFACTS / "conflict").mkdir(parents=True, exist_ok=True)
    panel.scroll_into_view_if_needed()
    screenshot(bob, "conflict/conflict-ar-1280")
    bob.set_viewport_size(PHONE)
    screenshot(bob, "conflict/conflict-ar-390")
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    bob.set_viewport_size(DESKTOP)

    versions.nth(0).get_by_label("خذ نسختهم").check()
    save(bob)
    assert errors(bob) == []
    story.refresh_from_db()
    assert story.headline_ar == "افتتاح مكتبة المدينة الكبرى بعد خمس سنوات"
    assert "الأسبوع، مع قاعات مخصصة للأطفال والباحثين. بحسب بوب" in story.body_ar
    assert "بحسب أليس" not in story.body_ar


def test_headline_and_summary_on_a_story_a_migration_wrote_merge_and_stay(
    two_browsers,
):
    """The issue's first sequence, on a story with no revision and text as a
    script leaves it: Alice changes only the headline, Bob only the summary. Bob
    is told nothing conflicts, and saving his page again keeps Alice's headline."""
    story = ArticleFactory(
        headline_ar="عنوان كتبه ترحيل ",
        summary_ar="ملخص\nمن سطرين\n",
        body_ar="<p>فقرة أولى.</p>\n<p>فقرة\nثانية.</p>",
    )
    alice, bob = two_browsers(story)
    alice.fill("#id_headline_ar", "عنوان أليس")
    save(alice)
    assert errors(alice) == []
    bob.fill("#id_summary_ar", "ملخص بوب")
    save(bob)
    assert errors(bob) == []
    assert bob.locator("#id_headline_ar").input_value() == "عنوان أليس"
    save(bob)
    story.refresh_from_db()
    assert (story.headline_ar, story.summary_ar) == ("عنوان أليس", "ملخص بوب")
