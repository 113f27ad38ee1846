"""A live coverage in real browsers: an editor posts entries and pins one from the
desk while a reader's page, in a second browser context, shows them arrive without
reloading: in Arabic on a phone (390 px) and in English on a desktop (1280 px).
Screenshots go to artifacts/live/."""

import pytest
from django.urls import reverse
from django.utils import translation

from core.roles import EDITORS
from live.models import LiveEntry
from live.services import live_entry_add, live_start
from tests.browser import DESKTOP, PHONE, log_in, screenshot
from tests.factories import ArticleFactory, member_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-for-tests"
EDITIONS = {
    "ar": {
        "viewport": PHONE,
        "entries": ["وصلت فرق الإنقاذ إلى حي النخيل.", "ارتفع عدد المصابين إلى 40."],
        "notice": "تحديث",
    },
    "en": {
        "viewport": DESKTOP,
        "entries": ["Rescue teams reached Al-Nakheel.", "The injured now number 40."],
        "notice": "update",
    },
}


@pytest.fixture
def coverage(settings):
    """A published story, live, with one entry; readers' pages ask every second
    and are served through the page cache, as in production."""
    settings.LIVE_POLL_SECONDS = 1
    settings.PAGE_CACHE = True
    editor = member_of(EDITORS, username="huda", first_name="هدى")
    article = ArticleFactory(
        headline_ar="زلزال بقوة 6 درجات يضرب المدينة",
        headline_en="A 6.0 earthquake strikes the city",
        summary_en="Live updates from the city.",
        body_en="<p>An earthquake struck the city at dawn.</p>",
    )
    live_start(article=article, by=editor)
    live_entry_add(
        article=article,
        by=editor,
        body={
            "ar": "<p>شعر السكان بهزة قوية فجرًا.</p>",
            "en": "<p>A strong tremor at dawn.</p>",
        },
        is_key_event=True,
    )
    return article, editor


def editor_of(language: str) -> str:
    """The desk's rich-text editor of an entry's text in `language`."""
    return f".prose-editor:has(#live-body-{language}) .ProseMirror[contenteditable]"


def story_url(live_server, article, language: str) -> str:
    with translation.override(language):
        return live_server.url + article.get_absolute_url()


@pytest.mark.parametrize("language", ["ar", "en"])
def test_entries_reach_a_reader_without_a_reload(
    browser, live_server, coverage, language
):
    article, editor = coverage
    edition = EDITIONS[language]
    reader_context = browser.new_context(viewport=edition["viewport"], locale=language)
    desk_context = browser.new_context(viewport=DESKTOP)
    try:
        reader = reader_context.new_page()
        reader.goto(story_url(live_server, article, language))
        reader.wait_for_selector("#live [data-entry]")
        # Marks this page: a reload would lose the mark.
        reader.evaluate("window.liveMark = 'same page'")

        desk = desk_context.new_page()
        log_in(desk, live_server, editor.username, PASSWORD)
        desk.goto(
            live_server.url
            + reverse("admin:articles_article_change", args=[article.pk])
            + "#live-desk"
        )
        if language == "en":
            desk.check("[data-desk-language][value=en]")
        first, second = edition["entries"]
        for text in (first, second):
            # The story body's rich-text editor, as on the story's form.
            desk.locator(editor_of(language)).fill(text)
            desk.click("[data-desk-submit]")
            desk.wait_for_selector(f"[data-desk-entries] :text('{text}')")
            # Saved: the form is empty again, ready for the next entry.
            assert desk.input_value(f"#live-body-{language}") == ""

        for text in (first, second):
            reader.wait_for_selector(
                f"[data-live-entries] :text('{text}')", timeout=15_000
            )
        notice = reader.text_content("[data-live-notice]")
        assert edition["notice"] in notice.lower()
        assert reader.get_attribute("[data-live-notice]", "aria-live") == "polite"

        # The editor pins the first entry; it moves to the pinned list.
        pinned = (
            LiveEntry.objects.get(body_ar__contains=first)
            if language == "ar"
            else LiveEntry.objects.get(body_en__contains=first)
        )
        desk.click(f"[data-desk-item='{pinned.pk}'] form[action$='/pin/'] button")
        desk.wait_for_selector(
            f"[data-desk-item='{pinned.pk}'].live-desk__entry--pinned"
        )
        reader.wait_for_selector(
            f"[data-live-pinned] [data-entry='{pinned.pk}']", timeout=15_000
        )
        assert reader.evaluate("window.liveMark") == "same page"
        # Edit loads the entry back into the editor.
        desk.click(f"[data-desk-item='{pinned.pk}'] [data-desk-edit]")
        editor = (
            f".prose-editor:has(#live-body-{language}) .ProseMirror[contenteditable]"
        )
        assert first in desk.text_content(editor)
        screenshot(reader, f"live/reader-{language}-{edition['viewport']['width']}")
        screenshot(desk, f"live/desk-{language}")
    finally:
        reader_context.close()
        desk_context.close()


def test_a_failed_save_keeps_the_text_and_shows_why(browser, live_server, coverage):
    """A refused entry (an empty one here) leaves the text typed and says why."""
    article, editor = coverage
    context = browser.new_context(viewport=DESKTOP)
    try:
        desk = context.new_page()
        log_in(desk, live_server, editor.username, PASSWORD)
        desk.goto(
            live_server.url
            + reverse("admin:articles_article_change", args=[article.pk])
        )
        desk.fill("#live-headline-ar", "عنوان")
        desk.fill("[name=image]", "999999")  # no such picture
        desk.click("[data-desk-submit]")
        desk.wait_for_selector("[data-desk-error]:not([hidden])")
        assert desk.input_value("#live-headline-ar") == "عنوان"
        screenshot(desk, "live/desk-refused")
    finally:
        context.close()


def test_ending_the_coverage_reaches_the_reader_and_stops_the_polls(
    browser, live_server, coverage
):
    """The editor ends the coverage; the reader's page says so without a reload
    and asks no more."""
    article, editor = coverage
    reader_context = browser.new_context(viewport=PHONE, locale="ar")
    desk_context = browser.new_context(viewport=DESKTOP)
    try:
        reader = reader_context.new_page()
        polls = []
        reader.on(
            "request", lambda r: polls.append(r.url) if "/live/updates/" in r.url else 0
        )
        reader.goto(story_url(live_server, article, "ar"))
        desk = desk_context.new_page()
        log_in(desk, live_server, editor.username, PASSWORD)
        desk.goto(
            live_server.url
            + reverse("admin:articles_article_change", args=[article.pk])
        )
        desk.on("dialog", lambda dialog: dialog.accept())
        desk.click("[data-desk-end]")
        desk.wait_for_selector("[data-desk-form]", state="hidden")
        reader.wait_for_selector("#live.live--ended", timeout=15_000)
        assert reader.locator(".live__badge").count() == 0
        asked = len(polls)
        reader.wait_for_timeout(2_500)  # more than two poll intervals
        assert len(polls) == asked
        screenshot(reader, "live/reader-ar-390-ended")
    finally:
        reader_context.close()
        desk_context.close()
