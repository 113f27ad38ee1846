"""Restoring a revision of a published story in Chromium, as a plain member of the
Editors, in Arabic: the revisions page leads to a question that says the live page
changes and shows how; confirming restores and returns to the story. Screenshots
of the question at 1280 and 390 px go to artifacts/restore/."""

import pytest

from articles.revisions import revisions_of
from articles.services import StoryEdit, article_publish, article_save
from core.roles import EDITORS
from tests.browser import ARTIFACTS, DESKTOP, PHONE, log_in, screenshot
from tests.factories import DraftArticleFactory, member_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def published():
    """An editor and a published story whose headline was rewritten since."""
    editor = member_of(EDITORS, username="hala", first_name="هالة")
    story = DraftArticleFactory.build(
        headline_ar="الحكومة تقر خطة النقل",
        body_ar="<p>أقرت الحكومة الخطة.</p>",
        section=None,
    )
    article_save(edit=StoryEdit(article=story), by=editor)
    article_publish(article=story, by=editor)
    story.headline_ar = "الحكومة تؤجل خطة النقل"
    article_save(edit=StoryEdit(article=story), by=editor)
    return editor, story


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_an_editor_restores_a_live_story_after_the_question(
    browser, live_server, published, viewport
):
    """Restore… opens the question; confirming brings the first headline back."""
    editor, story = published
    context = browser.new_context(viewport=viewport, locale="ar")
    page = context.new_page()
    try:
        log_in(page, live_server, editor.username, "pass-for-tests")
        page.goto(f"{live_server.url}/admin/articles/article/{story.pk}/revisions/")
        page.click("a.button >> nth=0")
        page.wait_for_url("**/restore/")
        warning = page.inner_text(".restore-warning")
        assert "تغيّر صفحته على الموقع فوراً" in warning  # changes its live page
        assert page.locator(".revision-diff").count() >= 1
        (ARTIFACTS / "restore").mkdir(parents=True, exist_ok=True)
        screenshot(page, f"restore/question-{viewport['width']}")
        assert (
            page.evaluate("document.documentElement.scrollWidth") <= (viewport["width"])
        )
        page.click(".restore-confirm input[type=submit]")
        page.wait_for_url("**/change/")
        assert "صفحة الخبر على الموقع تعرضها الآن" in page.inner_text(".messagelist")
        story.refresh_from_db()
        assert story.headline_ar == "الحكومة تقر خطة النقل"
        assert len(revisions_of(story)) == 4
    finally:
        context.close()
