"""In Chromium: a phone downloads a small rendition of the hero image, a desktop a
larger one; the library's admin shows thumbnails, also in the hero autocomplete.

Screenshots (390 and 1280 px, Arabic and English) are saved under artifacts/ as
images-*.png, which .gitignore leaves out. Run with `pytest -m browser`.
"""

import pytest
from django.conf import settings
from django.core.files.base import ContentFile
from django.utils import translation

from images.models import Rendition
from images.renditions import renditions_make
from tests.browser import log_in, screenshot
from tests.factories import ArticleFactory, ImageFactory, SuperuserFactory
from tests.images.pictures import photo_bytes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE, DESKTOP = 390, 1280


@pytest.fixture
def story():
    """A published story whose hero is a 2400 × 1600 photo with its renditions."""
    original = photo_bytes((2400, 1600), quality=92)
    image = ImageFactory(
        file=ContentFile(original, name="port.jpg"),
        width=2400,
        height=1600,
        title_ar="الميناء",
        title_en="The port",
        caption_ar="سفن راسية في الميناء صباح الثلاثاء",
        caption_en="Ships at anchor in the port on Tuesday morning",
        alt_text_ar="سفن راسية",
        alt_text_en="Ships at anchor",
        credit="Newsroom",
    )
    renditions_make(image)
    return ArticleFactory(
        headline_ar="مفاوضات الموانئ تدخل يومها الثالث",
        headline_en="Port talks enter their third day",
        body_en="<p>The first paragraph.</p><p>The second paragraph.</p>",
        hero_image=image,
    )


def url_of(story, language: str) -> str:
    with translation.override(language):
        return story.get_absolute_url()


def open_story(
    browser,
    live_server,
    story,
    width: int,
    language: str = "ar",
    scale: int = 1,
):
    """Open the story at `width` px (`scale` device pixels to one); return the page,
    the hero's currentSrc and the bytes the browser received for it."""
    context = browser.new_context(
        viewport={"width": width, "height": 900}, device_scale_factor=scale
    )
    page = context.new_page()
    received: dict[str, int] = {}
    page.on(
        "response",
        lambda r: (
            received.__setitem__(r.url, len(r.body())) if "/media/" in r.url else None
        ),
    )
    page.goto(live_server.url + url_of(story, language))
    hero = page.locator(".hero__media img")
    hero.evaluate("img => img.decode()")
    current = hero.evaluate("img => img.currentSrc")
    return context, page, current, received.get(current, 0)


def rendition_at(url: str) -> Rendition:
    path = url.split("/media/", 1)[1]
    return Rendition.objects.get(file=path)


def test_a_phone_downloads_a_small_rendition_of_the_hero(
    live_server,
    browser,
    story,
):
    """At 390 px the browser picks the 640-px rendition, a fraction of the original."""
    context, page, current, size = open_story(browser, live_server, story, PHONE)
    rendition = rendition_at(current)
    assert rendition.width == 640 and rendition.ratio == ""
    original = story.hero_image.file.size
    assert 0 < size < original / 5
    print(f"\nphone hero: original {original} bytes, {rendition.format} {size} bytes")
    screenshot(page, f"images-article-ar-{PHONE}")
    context.close()


def test_a_sharp_phone_screen_still_downloads_far_less_than_the_original(
    live_server,
    browser,
    story,
):
    """A 390-px phone with three device pixels to one picks the 1280-px rendition."""
    context, _page, current, size = open_story(
        browser, live_server, story, PHONE, scale=3
    )
    assert rendition_at(current).width == 1280
    original = story.hero_image.file.size
    assert 0 < size < original / 5
    print(f"\n3x phone hero: original {original} bytes, {size} bytes")
    context.close()


def test_a_desktop_downloads_a_larger_rendition_of_the_hero(
    live_server,
    browser,
    story,
):
    """At 1280 px the hero column is wider, and so is the rendition chosen."""
    context, page, current, _size = open_story(browser, live_server, story, DESKTOP)
    assert rendition_at(current).width >= 960
    screenshot(page, f"images-article-ar-{DESKTOP}")
    context.close()


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_english_page_shows_the_english_words_of_the_image(
    live_server,
    browser,
    story,
    width,
):
    """The English edition shows the English alt text and caption."""
    context, page, current, _size = open_story(browser, live_server, story, width, "en")
    assert page.locator(".hero__media img").get_attribute("alt") == "Ships at anchor"
    assert "Ships at anchor in the port" in page.locator(".hero__caption").inner_text()
    assert rendition_at(current)
    screenshot(page, f"images-article-en-{width}")
    context.close()


def logged_in(browser, live_server, language: str, width: int):
    SuperuserFactory(username=f"desk-{language}-{width}", password="desk-password")
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies(
        [
            {
                "name": settings.LANGUAGE_COOKIE_NAME,
                "value": language,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    log_in(page, live_server, f"desk-{language}-{width}", "desk-password")
    return context, page


@pytest.mark.parametrize("language", ["ar", "en"])
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_image_library_lists_thumbnails(
    live_server,
    browser,
    story,
    language,
    width,
):
    """The library's list shows each image's thumbnail, loaded from a rendition."""
    context, page = logged_in(browser, live_server, language, width)
    page.goto(live_server.url + "/admin/images/image/")
    thumb = page.locator("img.image-thumb").first
    thumb.evaluate("img => img.decode()")
    assert thumb.evaluate("img => img.naturalWidth") == 320
    screenshot(page, f"images-admin-list-{language}-{width}")
    context.close()


def test_the_hero_autocomplete_shows_thumbnails(
    live_server,
    browser,
    story,
):
    """Typing in the hero field lists matching images with their thumbnails."""
    context, page = logged_in(browser, live_server, "en", DESKTOP)
    page.goto(live_server.url + "/admin/articles/article/add/")
    page.click("#id_hero_image + .select2")
    page.keyboard.type("port")
    choice = page.locator(".select2-results .image-choice").first
    choice.wait_for()
    assert "The port" in choice.inner_text() or "الميناء" in choice.inner_text()
    assert choice.locator("img").get_attribute("src").startswith("/media/renditions/")
    screenshot(page, "images-admin-hero-autocomplete-en-1280")
    context.close()
