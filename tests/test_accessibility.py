"""Public pages pass axe-core's checks in headless Chromium, in Arabic and English.

Run with the `browser` marker (`pytest -m browser`); see tests/browser.py.
"""

from urllib.parse import quote, urlencode

import pytest
from django.utils import translation

from articles.models import ArticlePerson
from articles.search_index import index_article
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    CorrectionFactory,
    ImageFactory,
    PersonFactory,
    SectionFactory,
    SocialPostFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Impacts that fail a page; "minor" and "moderate" findings are reported by axe but
# left to review.
FAILING_IMPACTS = {"serious", "critical"}


@pytest.fixture(scope="session")
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def newsroom():
    """A small front page like the demo's: a full bilingual story and two others."""
    section = SectionFactory(name_ar="سياسة", name_en="Politics")
    story = ArticleFactory(
        section=section,
        headline_ar="مفاوضات الموانئ تدخل يومها الثالث",
        headline_en="Port talks enter their third day",
        kicker_ar="خاص",
        kicker_en="Exclusive",
        summary_ar="الوفود تبحث جدول تفريغ الشحنات العالقة.",
        summary_en="Delegations discuss a timetable for stranded cargo.",
        body_ar="<p>الفقرة الأولى من الخبر.</p><p>الفقرة الثانية من الخبر.</p>",
        body_en="<p>The first paragraph.</p><p>The second paragraph.</p>",
        is_breaking=True,
        hero_image=ImageFactory(
            alt_text_ar="سفن راسية في الميناء",
            alt_text_en="Ships at anchor in the port",
            credit="AFP",
        ),
        hero_caption_ar="الميناء صباح الثلاثاء",
        hero_caption_en="The port on Tuesday morning",
    )
    story.tags.add("الموانئ", "Shipping")
    post = SocialPostFactory(
        article=story,
        language="en",
        author_name="Port Authority",
        handle="port_authority",
        text="Talks resume at 9am #ports https://t.co/abc123",
        url="https://x.com/port_authority/status/1",
        media_urls=["https://pbs.twimg.com/media/abc.jpg"],
    )
    placed = f'<figure data-post="{post.pk}"></figure>'
    story.body_ar = story.body_ar.replace("</p>", "</p>" + placed, 1)
    story.body_en = story.body_en.replace("</p>", "</p>" + placed, 1)
    story.save()
    BylineFactory(article=story, name="سلمى حداد")
    ArticlePersonFactory(
        article=story,
        person=PersonFactory(name="سامي الحلبي", description="وزير النقل"),
        role=ArticlePerson.Role.QUOTED,
    )
    AttributionFactory(article=story, original_url="https://example.org/report")
    CorrectionFactory(article=story)
    # A story in Arabic only (shown in Arabic on /en/) and one in English only.
    arabic_only = ArticleFactory(section=section, headline_ar="الموانئ تستأنف العمل")
    arabic_only.tags.add("الموانئ")
    english_only = ArticleFactory(
        section=section,
        language="en",
        headline_ar="",
        summary_ar="",
        body_ar="",
        headline_en="Ports reopen after the talks",
        summary_en="Cargo moves again.",
        body_en="<p>Cargo moves again.</p>",
    )
    for article in (story, arabic_only, english_only):
        index_article(article)
    return story


def page_path(language: str, name: str, story) -> str:
    with translation.override(language):
        paths = {
            "home": f"/{language}/",
            "article": story.get_absolute_url(),
            "section": story.section.get_absolute_url(),
            "tag": f"/{language}/tag/{quote(story.tags.get(name='الموانئ').slug)}/",
            "search": f"/{language}/search/?"
            + urlencode({"q": "الموانئ" if language == "ar" else "ports"}),
        }
    return paths[name]


def describe(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(
            f"{violation['id']} ({violation['impact']}): {violation['help']}"
            f" — {violation['helpUrl']}"
        )
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            lines.append(f"    {target}")
            lines.append(f"      {node['failureSummary'].replace(chr(10), ' ')}")
    return "\n".join(lines)


@pytest.mark.parametrize("language", ["ar", "en"])
@pytest.mark.parametrize("name", ["home", "article", "section", "tag", "search"])
def test_page_has_no_serious_accessibility_violations(
    live_server, page, axe, newsroom, language, name
):
    """axe-core finds no serious or critical violation on the public page."""
    path = page_path(language, name, newsroom)
    response = page.goto(live_server.url + path)
    assert response is not None and response.status == 200, path
    assert page.locator(".teaser, .article").count() > 0, f"{path} shows no story"

    violations = axe.run(page).response["violations"]
    failing = [v for v in violations if v["impact"] in FAILING_IMPACTS]
    if violations:
        print(f"axe on {path}:\n{describe(violations)}")
    if failing:
        pytest.fail(f"axe on {path}:\n{describe(failing)}", pytrace=False)


def test_skip_link_is_first_and_moves_focus_to_the_content(live_server, page, newsroom):
    """The first Tab shows the skip link; following it puts focus on <main>."""
    page.goto(live_server.url + "/ar/")
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    assert skip.evaluate("element => element === document.activeElement")
    box = skip.bounding_box()
    assert box is not None and box["y"] >= 0, "the focused skip link is off-screen"
    page.keyboard.press("Enter")
    # Following the in-page link moves focus a moment later: wait, do not race it.
    page.wait_for_function("document.activeElement.id === 'main'", timeout=5000)
    assert page.evaluate("document.activeElement.id") == "main"


# Elements reaching past either edge of the viewport, for the failure message.
_OVERFLOWING = """() => [...document.querySelectorAll('body *')]
    .filter(e => { const r = e.getBoundingClientRect();
                   return r.right > innerWidth + 1 || r.left < -1; })
    .slice(0, 5)
    .map(e => `${e.tagName.toLowerCase()}.${e.className} ` +
              `${Math.round(e.getBoundingClientRect().left)}..` +
              `${Math.round(e.getBoundingClientRect().right)}`)"""


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize("language", ["ar", "en"])
@pytest.mark.parametrize(
    "name", ["home", "article", "section", "tag", "search", "person", "source"]
)
def test_no_public_page_scrolls_sideways_on_a_phone(
    live_server, browser, newsroom, language, name, width
):
    """On a phone (390 px, and a small one at 320), no public page is wider than
    the screen in either edition: the header's search button stays on it."""
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    with translation.override(language):
        person = newsroom.people_named.get().person
        source = newsroom.attributions.get().source
        path = {
            "person": person.get_absolute_url(),
            "source": source.get_absolute_url(),
        }.get(name) or page_path(language, name, newsroom)
    response = page.goto(live_server.url + path)
    assert response is not None and response.status == 200, path
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    overflowing = page.evaluate(_OVERFLOWING)
    context.close()
    assert scroll_width <= width, f"{path} is {scroll_width} px wide: {overflowing}"
