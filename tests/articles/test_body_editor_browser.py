"""The body editor in a real browser: an editor writes and formats an Arabic story
without seeing HTML, places a post, saves, and the public page shows it; hostile HTML
pasted into the editor runs nowhere. Screenshots go to artifacts/."""

import pytest
from django.utils import translation

from tests.browser import DESKTOP, PHONE, log_in, screenshot
from tests.factories import (
    ArticleFactory,
    ImageFactory,
    RenditionFactory,
    SocialPostFactory,
    SuperuserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-for-tests"
AR_EDITOR = ".prose-editor:has(#id_body_ar) .ProseMirror[contenteditable]"
AR_MENU = ".prose-editor:has(#id_body_ar) .prose-menubar"
HOSTILE = (
    '<p>قبل<img src=x onerror="window.__xss=1"></p>'
    "<script>window.__xss=2</script>"
    '<p><a href="javascript:window.__xss=3">رابط</a></p>'
    '<svg onload="window.__xss=4"></svg><iframe src="javascript:window.__xss=5">'
    "</iframe><p>بعد</p>"
)


@pytest.fixture
def desk(browser, live_server):
    """A logged-in editor's page and a published story with one social post."""
    user = SuperuserFactory(username="desk_editor")
    story = ArticleFactory(
        headline_ar="اجتماع لجنة الموانئ", body_ar="<p>افتتح الاجتماع صباحاً.</p>"
    )
    post = SocialPostFactory(article=story, handle="port_authority", text="بيان")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    log_in(page, live_server, user.username, PASSWORD)
    yield page, story, post
    context.close()


def change_url(live_server, story) -> str:
    return f"{live_server.url}/admin/articles/article/{story.pk}/change/"


def public_url(live_server, story, language="ar") -> str:
    story.refresh_from_db()
    with translation.override(language):
        return live_server.url + story.get_absolute_url()


def save(page) -> None:
    page.click("input[name=_continue]")
    page.wait_for_load_state("networkidle")
    assert page.locator(".errornote").count() == 0, page.locator(
        ".errorlist"
    ).all_inner_texts()


def test_an_editor_formats_a_story_and_places_a_post(desk, live_server):
    """Typed Arabic with an English name and a number, a bold word, a link and a
    placed post are stored as clean markup and shown on the public page."""
    page, story, post = desk
    page.goto(change_url(live_server, story))
    editor = page.locator(AR_EDITOR)
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.type("قال John Smith إن 25 سفينة وصلت ")
    page.keyboard.press("Control+b")
    page.keyboard.type("اليوم")
    page.keyboard.press("Control+b")
    page.keyboard.press("Enter")
    page.keyboard.type("التفاصيل")
    page.keyboard.press("Shift+Home")
    page.click(f"{AR_MENU} [data-name=link]")
    assert page.locator("dialog.prose-editor-dialog h3").inner_text() == "تعديل الرابط"
    page.fill(
        "dialog.prose-editor-dialog input[name=href]", "https://example.org/ports"
    )
    page.click("dialog.prose-editor-dialog button[type=submit]")
    page.keyboard.press("End")
    page.click(f"{AR_MENU} [data-name=storyEmbedPost]")
    page.click("dialog.story-embed-dialog button[value=insert]")
    assert editor.locator("figure.story-embed").count() == 1
    assert editor.evaluate("e => e.getAttribute('dir')") == "rtl"
    screenshot(page, "editor-ar-1280")
    save(page)

    story.refresh_from_db()
    body = story.body_ar
    assert (
        '<p dir="auto">قال John Smith إن 25 سفينة وصلت <strong>اليوم</strong></p>'
        in body
    )
    assert 'href="https://example.org/ports"' in body
    assert f'<figure data-post="{post.pk}"></figure>' in body
    assert body.index("التفاصيل") < body.index("data-post")

    page.goto(public_url(live_server, story))
    article = page.locator("article")
    assert article.locator("strong", has_text="اليوم").count() == 1
    assert article.locator("a[href='https://example.org/ports']").count() == 1
    assert "@port_authority" in article.inner_text()
    text = article.inner_text()
    assert text.index("التفاصيل") < text.index("@port_authority")
    screenshot(page, "story-ar-1280")
    page.set_viewport_size(PHONE)
    screenshot(page, "story-ar-390")


def test_an_editor_places_a_library_image(desk, live_server):
    """The image button searches the library; the placed image is stored as a
    reference and shown on the public page with its renditions."""
    page, story, _post = desk
    image = ImageFactory(title_ar="جسر المدينة", caption_ar="الجسر صباحاً")
    RenditionFactory(image=image, width=320, height=180)
    page.goto(change_url(live_server, story))
    page.locator(AR_EDITOR).click()
    page.keyboard.press("Control+End")
    page.click(f"{AR_MENU} [data-name=storyEmbedImage]")
    page.fill("dialog.story-embed-dialog input[type=search]", "جسر")
    page.check(f"dialog.story-embed-dialog input[type=radio][value='{image.pk}']")
    page.click("dialog.story-embed-dialog button[value=insert]")
    card = page.locator(f"{AR_EDITOR} figure.story-embed--image")
    assert "جسر المدينة" in card.inner_text()
    assert card.locator("img").count() == 1
    save(page)
    story.refresh_from_db()
    assert f'<figure data-image="{image.pk}"></figure>' in story.body_ar
    page.goto(public_url(live_server, story))
    picture = page.locator("article .body-image img")
    assert picture.get_attribute("srcset").endswith("320w")
    assert "الجسر صباحاً" in page.locator("article .body-image").inner_text()


def test_the_toolbar_speaks_the_admins_language(desk, live_server):
    """In the Arabic admin the buttons are named in Arabic, for tooltips and for
    screen readers alike."""
    page, story, _post = desk
    page.goto(change_url(live_server, story))
    bold = page.locator(f"{AR_MENU} [data-name=bold]")
    bold.wait_for()
    page.wait_for_function(
        "b => b.title !== 'bold'", arg=bold.element_handle(), timeout=5000
    )
    assert (bold.get_attribute("title"), bold.get_attribute("aria-label")) == (
        "غامق",
        "غامق",
    )


# Roughly what Word puts on the clipboard: classes, inline styles, conditional
# comments, spans and its own list markup around the structure an editor wants.
WORD_PASTE = (
    "<html xmlns:o='urn:schemas-microsoft-com:office:office'><head><style>"
    "p.MsoNormal{margin:0}</style></head><body><!--StartFragment-->"
    "<h2 class=MsoHeading2 style='mso-outline-level:2'><span lang=AR-SA>عنوان فرعي"
    "</span></h2><p class=MsoNormal dir=RTL style='text-align:right'><span "
    "style='font-family:Arial'>فقرة <b>مهمة</b> مع <i>مائل</i></span><o:p></o:p>"
    "</p><ul><li class=MsoListParagraph style='mso-list:l0 level1 lfo1'>بند أول"
    "</li><li>بند ثان</li></ul><!--EndFragment--></body></html>"
)


def paste(page, selector: str, html: str) -> None:
    page.locator(selector).evaluate(
        """(editor, html) => {
            const data = new DataTransfer();
            data.setData('text/html', html);
            data.setData('text/plain', 'x');
            editor.dispatchEvent(
                new ClipboardEvent('paste', {clipboardData: data, bubbles: true}));
        }""",
        html,
    )


def test_pasting_from_word_keeps_structure_and_drops_the_rest(desk, live_server):
    """Headings, bold, italics and lists survive a paste from Word; classes,
    styles, spans and Office markup do not."""
    page, story, _post = desk
    page.goto(change_url(live_server, story))
    page.locator(AR_EDITOR).click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")  # on a line of its own, as an editor would paste
    paste(page, AR_EDITOR, WORD_PASTE)
    save(page)
    story.refresh_from_db()
    body = story.body_ar
    assert '<h2 dir="auto">عنوان فرعي</h2>' in body
    assert "<strong>مهمة</strong>" in body and "<em>مائل</em>" in body
    assert "<ul><li" in body and "بند ثان" in body
    for marker in ("class=", "style=", "<span", "mso", "o:p", "<!--"):
        assert marker not in body


def test_hostile_html_pasted_into_the_editor_runs_nowhere(desk, live_server):
    """Script, handlers and javascript: links pasted into the body execute neither in
    the admin nor on the public page, and none of them is stored."""
    page, story, _post = desk
    page.goto(change_url(live_server, story))
    page.locator(AR_EDITOR).click()
    paste(page, AR_EDITOR, HOSTILE)
    assert page.locator(AR_EDITOR).inner_text().count("بعد") == 1
    save(page)
    assert page.evaluate("window.__xss") is None
    story.refresh_from_db()
    stored = story.body_ar.lower()
    for marker in ("onerror", "<script", "javascript:", "<svg", "<iframe", "<img"):
        assert marker not in stored
    page.goto(public_url(live_server, story))
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__xss") is None
    page.goto(change_url(live_server, story))
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__xss") is None


def test_the_english_body_edits_left_to_right(desk, live_server):
    """On the English tab the editor runs left to right; each paragraph is dir=auto
    in the editor and in what is stored."""
    page, story, _post = desk
    page.goto(change_url(live_server, story))
    english = ".prose-editor:has(#id_body_en) .ProseMirror[contenteditable]"
    page.click(".mt-tabs:has(+ .field-body_ar) button[lang=en]")
    page.locator(english).click()
    page.keyboard.type("The minister met 12 port directors.")
    assert page.locator(english).evaluate("e => e.getAttribute('dir')") == "ltr"
    assert page.locator(f"{english} p").first.get_attribute("dir") == "auto"
    screenshot(page, "editor-en-1280")
    save(page)
    story.refresh_from_db()
    assert story.body_en == '<p dir="auto">The minister met 12 port directors.</p>'
    page.set_viewport_size(PHONE)
    screenshot(page, "editor-ar-390")
    story.headline_en = "Port committee meets"
    story.save()
    page.goto(public_url(live_server, story, "en"))
    assert page.locator("html").get_attribute("dir") == "ltr"
    screenshot(page, "story-en-390")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "story-en-1280")
