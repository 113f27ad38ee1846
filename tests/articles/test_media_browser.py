"""Placing media in the body and keeping unsaved text, in a real browser, as a plain
Reporter in the Arabic admin: a post added in the form is placed before the story is
first saved; the image chooser searches the whole library; the body is spell
checked; text typed and not saved comes back after the page is closed, and only the
editor's Save sends it. Screenshots go to artifacts/media/."""

import pytest
from django.core.files.base import ContentFile

from articles.models import Article
from core.roles import REPORTERS
from tests.browser import ARTIFACTS, DESKTOP, PHONE, log_in, screenshot
from tests.factories import (
    DraftArticleFactory,
    ImageFactory,
    RenditionFactory,
    member_of,
    picture_bytes,
)

PALETTE = ("steelblue", "darkseagreen", "indianred", "goldenrod", "slategray")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-for-tests"
AR_EDITOR = ".prose-editor:has(#id_body_ar) .ProseMirror[contenteditable]"
EN_EDITOR = ".prose-editor:has(#id_body_en) .ProseMirror[contenteditable]"
AR_MENU = ".prose-editor:has(#id_body_ar) .prose-menubar"
DIALOG = "dialog.story-embed-dialog"
BANNER = ".autosave-banner"


def reporter():
    """A plain member of the Reporters (who now write a story's social posts too)."""
    return member_of(REPORTERS)


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport=DESKTOP)
    yield context
    context.close()


def logged_in(context, live_server, user):
    page = context.new_page()
    log_in(page, live_server, user.username, PASSWORD)
    return page


def add_url(live_server) -> str:
    return f"{live_server.url}/admin/articles/article/add/"


def change_url(live_server, story) -> str:
    return f"{live_server.url}/admin/articles/article/{story.pk}/change/"


def shot(page, name: str, *, whole_page: bool = True) -> None:
    """artifacts/media/<name>.png: the whole page, or what the screen shows (a
    modal dialog covers the screen, not the page)."""
    (ARTIFACTS / "media").mkdir(parents=True, exist_ok=True)
    if whole_page:
        screenshot(page, f"media/{name}")
    else:
        page.screenshot(path=str(ARTIFACTS / "media" / f"{name}.png"))


def save(page) -> None:
    page.click("input[name=_continue]")
    page.wait_for_load_state("networkidle")
    assert page.locator(".errornote").count() == 0, page.locator(
        ".errorlist"
    ).all_inner_texts()


# ------------------------------------------------------------ posts before saving


def test_a_post_added_in_the_form_is_placed_before_the_story_is_first_saved(
    context, live_server
):
    """On the add form a post typed into the inline is offered at once; placed and
    saved together, the body points at the new post."""
    page = logged_in(context, live_server, reporter())
    page.goto(add_url(live_server))
    page.fill("#id_headline_ar", "بيان هيئة الموانئ")
    page.click("#social_posts-group .add-row a")
    page.fill("#id_social_posts-0-handle", "port_authority")
    page.fill("#id_social_posts-0-text", "بيان عن حركة السفن")
    page.locator(AR_EDITOR).click()
    page.keyboard.type("افتتح الاجتماع صباحاً.")
    page.keyboard.press("Enter")
    page.click(f"{AR_MENU} [data-name=storyEmbedPost]")
    offered = page.locator(f"{DIALOG} select option").all_inner_texts()
    assert any("@port_authority" in text for text in offered), offered
    page.click(f"{DIALOG} button[value=insert]")
    card = page.locator(f"{AR_EDITOR} figure.story-embed--post")
    assert "@port_authority" in card.inner_text()
    (ARTIFACTS / "media").mkdir(parents=True, exist_ok=True)
    page.locator(".prose-editor:has(#id_body_ar)").screenshot(
        path=str(ARTIFACTS / "media" / "new-post-placed-ar-1280.png")
    )
    save(page)

    article = Article.objects.get()
    post = article.social_posts.get()
    assert f'<figure data-post="{post.pk}"></figure>' in article.body_ar
    assert "data-post-key" not in article.body_ar
    # Opened again, the editor shows the saved post where it was placed.
    assert "@port_authority" in page.locator(f"{AR_EDITOR} figure").inner_text()


def test_the_post_chooser_says_what_to_do_when_the_story_has_no_post(
    context, live_server
):
    """With no post saved or typed, the chooser says how to add one instead of
    offering an empty list."""
    page = logged_in(context, live_server, reporter())
    page.goto(add_url(live_server))
    page.locator(AR_EDITOR).click()
    page.click(f"{AR_MENU} [data-name=storyEmbedPost]")
    dialog = page.locator(DIALOG)
    assert dialog.locator("select").count() == 0
    assert dialog.locator("button[value=insert]").count() == 0
    assert dialog.locator("p").inner_text().strip()


# ------------------------------------------------------------ the image chooser


def test_the_image_chooser_searches_the_whole_library_by_keyboard(context, live_server):
    """The chooser shows the library twenty at a time with thumbnails, loads more
    on demand, finds an image older than the newest sixty by an Arabic word typed
    with another hamza, and places it with the keyboard alone."""
    old = ImageFactory(title_ar="جسر الملك فهد", credit="وكالة الأنباء")
    thumb = RenditionFactory(image=old)
    for number in range(1, 65):
        # Renditions not made yet: the chooser shows these originals scaled down.
        color = PALETTE[number % len(PALETTE)]
        ImageFactory(
            title_ar=f"صورة من الأرشيف {number}",
            file=ContentFile(picture_bytes((160, 90), color), name="p.jpg"),
        )
    page = logged_in(context, live_server, reporter())
    page.goto(add_url(live_server))
    page.locator(AR_EDITOR).click()
    page.focus(f"{AR_MENU} [data-name=storyEmbedImage]")
    page.keyboard.press("Enter")
    dialog = page.locator(DIALOG)
    results = dialog.locator(".story-embed-result")
    results.nth(19).wait_for()
    assert results.count() == 20
    assert dialog.locator(".story-embed-result img").count() == 20
    assert page.evaluate("document.activeElement.type") == "search"
    assert dialog.evaluate("d => getComputedStyle(d).direction") == "rtl"
    shot(page, "image-chooser-ar-1280", whole_page=False)
    page.set_viewport_size(PHONE)
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shot(page, "image-chooser-ar-390", whole_page=False)
    page.set_viewport_size(DESKTOP)
    dialog.locator(".story-embed-more").focus()
    page.keyboard.press("Enter")
    results.nth(39).wait_for()
    assert page.evaluate("document.activeElement.type") == "radio"

    dialog.locator("input[type=search]").focus()
    page.keyboard.type("الملك فهد")
    page.wait_for_function(
        "() => document.querySelectorAll('.story-embed-result').length === 1"
    )
    found = results.first
    assert "جسر الملك فهد" in found.inner_text()
    assert found.locator("img").get_attribute("src") == thumb.file.url
    page.set_viewport_size(PHONE)
    shot(page, "image-chooser-search-ar-390", whole_page=False)
    page.set_viewport_size(DESKTOP)

    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.value") == str(old.pk)
    page.keyboard.press("Enter")
    card = page.locator(f"{AR_EDITOR} figure.story-embed--image")
    assert "جسر الملك فهد" in card.inner_text()
    assert card.locator("img").get_attribute("src") == thumb.file.url
    page.fill("#id_headline_ar", "جسر الملك فهد")
    save(page)
    assert f'<figure data-image="{old.pk}"></figure>' in Article.objects.get().body_ar


def test_the_image_chooser_folds_hamza_and_says_when_nothing_matches(
    context, live_server
):
    """A word typed without its hamza finds the image; a word in no image says so."""
    ImageFactory(title_ar="تمثال الأسد")
    page = logged_in(context, live_server, reporter())
    page.goto(add_url(live_server))
    page.locator(AR_EDITOR).click()
    page.click(f"{AR_MENU} [data-name=storyEmbedImage]")
    results = page.locator(f"{DIALOG} .story-embed-result")
    results.first.wait_for()
    page.fill(f"{DIALOG} input[type=search]", "الاسد")
    page.keyboard.press("Enter")  # searches at once, places nothing
    page.wait_for_function(
        "() => /الأسد/.test(document.querySelector('.story-embed-results').innerText)"
    )
    assert results.count() == 1
    page.fill(f"{DIALOG} input[type=search]", "غواصة")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('.story-embed-result')")
    assert page.locator(f"{DIALOG} .story-embed-status").inner_text().strip()
    assert page.locator(DIALOG).is_visible()


# ------------------------------------------------------------ spell check


def test_the_body_is_spell_checked_in_each_languages_direction(context, live_server):
    """The Arabic body is checked as Arabic, right to left; the English one as
    English, left to right."""
    page = logged_in(context, live_server, reporter())
    page.goto(add_url(live_server))
    arabic = page.locator(AR_EDITOR)
    arabic.wait_for()
    attributes = "e => [e.spellcheck, e.getAttribute('lang'), e.getAttribute('dir')]"
    assert arabic.evaluate(attributes) == [True, "ar", "rtl"]
    page.click(".mt-tabs:has(+ .field-body_ar) button[lang=en]")
    assert page.locator(EN_EDITOR).evaluate(attributes) == [True, "en", "ltr"]


# ------------------------------------------------------------ autosave


def stored_draft(page) -> str:
    """Every autosaved draft in this browser, as one string."""
    return page.evaluate(
        """() => Object.keys(localStorage)
            .filter(k => k.startsWith('newsroom.draft.'))
            .map(k => localStorage.getItem(k)).join('\\n')"""
    )


def type_unsaved(page, headline: str, words: str) -> None:
    page.fill("#id_headline_ar", headline)
    page.locator(AR_EDITOR).click()
    page.keyboard.press("Control+End")
    page.keyboard.type(words)
    page.wait_for_function(
        "w => Object.keys(localStorage).some(k => k.startsWith('newsroom.draft.')"
        " && localStorage.getItem(k).includes(w))",
        arg=words,
    )


def test_unsaved_text_comes_back_after_the_page_is_closed(context, live_server):
    """Typed, closed without saving, opened again: a banner offers the text back;
    restoring fills the form and saves nothing; the editor's Save does, and then
    the draft is gone."""
    user = reporter()
    story = DraftArticleFactory(
        created_by=user, headline_ar="عنوان محفوظ", body_ar="<p>نص محفوظ.</p>"
    )
    page = logged_in(context, live_server, user)
    page.goto(change_url(live_server, story))
    page.locator(AR_EDITOR).wait_for()
    assert not page.locator(BANNER).is_visible()
    type_unsaved(page, "عنوان لم يحفظ", " جملة لم تحفظ")
    page.close()

    page = context.new_page()
    page.goto(change_url(live_server, story))
    banner = page.locator(BANNER)
    banner.wait_for()
    assert page.input_value("#id_headline_ar") == "عنوان محفوظ"
    shot(page, "autosave-banner-ar-1280", whole_page=False)
    page.set_viewport_size(PHONE)
    shot(page, "autosave-banner-ar-390", whole_page=False)
    page.set_viewport_size(DESKTOP)

    banner.locator("[data-autosave-restore]").click()
    assert not banner.is_visible()
    assert page.locator("[data-autosave-restored]").is_visible()
    assert page.input_value("#id_headline_ar") == "عنوان لم يحفظ"
    assert "جملة لم تحفظ" in page.locator(AR_EDITOR).inner_text()
    assert "جملة لم تحفظ" in page.input_value("#id_body_ar")
    page.wait_for_timeout(300)
    story.refresh_from_db()
    assert (story.headline_ar, story.body_ar) == ("عنوان محفوظ", "<p>نص محفوظ.</p>")

    save(page)
    story.refresh_from_db()
    assert story.headline_ar == "عنوان لم يحفظ"
    assert "جملة لم تحفظ" in story.body_ar
    assert "لم يحفظ" not in stored_draft(page)
    page.goto(change_url(live_server, story))
    page.locator(AR_EDITOR).wait_for()
    assert not page.locator(BANNER).is_visible()


def test_a_discarded_draft_is_forgotten(context, live_server):
    """Discard hides the banner, leaves the form as stored and forgets the draft."""
    user = reporter()
    story = DraftArticleFactory(created_by=user, headline_ar="عنوان محفوظ")
    page = logged_in(context, live_server, user)
    page.goto(change_url(live_server, story))
    type_unsaved(page, "عنوان مهمل", " كلام مهمل")
    page.goto(change_url(live_server, story))
    page.locator(f"{BANNER} [data-autosave-discard]").click()
    assert not page.locator(BANNER).is_visible()
    assert page.input_value("#id_headline_ar") == "عنوان محفوظ"
    assert "مهمل" not in stored_draft(page)


def test_a_refused_save_keeps_the_draft(context, live_server):
    """A save refused by the form (no headline) leaves the typed text in the draft,
    and a new page still offers it."""
    user = reporter()
    page = logged_in(context, live_server, user)
    page.goto(add_url(live_server))
    page.locator(AR_EDITOR).click()
    page.keyboard.type("فقرة بلا عنوان")
    page.wait_for_function(
        "() => Object.values(localStorage).some(v => v.includes('فقرة بلا عنوان'))"
    )
    page.click("input[name=_continue]")
    page.wait_for_load_state("networkidle")
    assert page.locator(".errornote").count() == 1
    assert not page.locator(BANNER).is_visible()  # the form holds the text still
    assert "فقرة بلا عنوان" in stored_draft(page)
    assert not Article.objects.exists()

    page = context.new_page()
    page.goto(add_url(live_server))
    page.locator(BANNER).wait_for()
    page.locator(f"{BANNER} [data-autosave-restore]").click()
    assert "فقرة بلا عنوان" in page.locator(AR_EDITOR).inner_text()


def test_logging_out_forgets_every_draft(context, live_server):
    """The browser may be a shared computer: logging out leaves no draft in it."""
    user = reporter()
    page = logged_in(context, live_server, user)
    page.goto(add_url(live_server))
    type_unsaved(page, "عنوان", " مسودة")
    page.click("#logout-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert stored_draft(page) == ""


def test_a_new_post_row_and_its_place_in_the_body_come_back(context, live_server):
    """A post typed into a new inline row and placed in the body, then the page
    closed: restoring adds the row again with its text and its place, and saving
    stores both."""
    user = reporter()
    story = DraftArticleFactory(created_by=user, body_ar="<p>نص محفوظ.</p>")
    page = logged_in(context, live_server, user)
    page.goto(change_url(live_server, story))
    page.click("#social_posts-group .add-row a")
    page.fill("#id_social_posts-0-handle", "port_authority")
    page.fill("#id_social_posts-0-text", "بيان لم يحفظ")
    page.locator(AR_EDITOR).click()
    page.keyboard.press("Control+End")
    page.click(f"{AR_MENU} [data-name=storyEmbedPost]")
    page.click(f"{DIALOG} button[value=insert]")
    page.wait_for_function(
        "() => Object.values(localStorage).some(v => v.includes('data-post-key'))"
    )
    page.close()

    page = context.new_page()
    page.goto(change_url(live_server, story))
    page.locator(f"{BANNER} [data-autosave-restore]").click()
    assert page.input_value("#id_social_posts-0-text") == "بيان لم يحفظ"
    card = page.locator(f"{AR_EDITOR} figure.story-embed--post")
    assert "@port_authority" in card.inner_text()
    assert not story.social_posts.exists()
    save(page)
    post = story.social_posts.get()
    story.refresh_from_db()
    assert f'<figure data-post="{post.pk}"></figure>' in story.body_ar


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_story_form_fits_the_screen(browser, live_server, viewport):
    """Every part of the form, the attributions' table of six columns included,
    stays within the screen; a table wider than its box scrolls inside it."""
    context = browser.new_context(viewport=viewport)
    try:
        page = logged_in(context, live_server, reporter())
        page.goto(add_url(live_server))
        shot(page, f"story-form-ar-{viewport['width']}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], width
    finally:
        context.close()
