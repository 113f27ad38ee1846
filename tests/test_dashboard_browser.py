"""The desk's dashboard in Chromium, as a plain member of the Editors and of the
Reporters, in Arabic at 1280 and 390 px: every list shows its stories, and a
phone never scrolls sideways. Screenshots go to artifacts/dashboard/."""

from datetime import timedelta

import pytest
from django.utils import timezone

from articles.models import Correction, Status
from core.roles import EDITORS, REPORTERS
from tests.browser import ARTIFACTS, DESKTOP, PHONE, log_in, screenshot
from tests.factories import (
    ArticleFactory,
    BylineFactory,
    CorrectionFactory,
    DraftArticleFactory,
    SectionFactory,
    member_of,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-for-tests"
SHELVES = ["drafts", "review", "scheduled", "published", "corrections"]


@pytest.fixture
def newsroom():
    """A desk with stories in every list: the editor's and reporter's drafts, two
    in review, one scheduled, one embargoed, three published, two corrections."""
    now = timezone.now()
    editor = member_of(EDITORS, username="hala", first_name="هالة", last_name="سعيد")
    reporter = member_of(
        REPORTERS, username="omar", first_name="عمر", last_name="الحسن"
    )
    section = SectionFactory(name_ar="اقتصاد")
    DraftArticleFactory(
        created_by=editor,
        section=section,
        headline_ar="مجلس الوزراء يناقش موازنة العام المقبل وسط مطالب بخفض الإنفاق "
        "على المشاريع الكبرى وتوجيهه إلى التعليم والصحة",
    )
    BylineFactory(
        article=DraftArticleFactory(headline_ar="حوار مع رئيسة بلدية المدينة"),
        user=editor,
    )
    DraftArticleFactory(created_by=reporter, headline_ar="سوق السمك يعود إلى العمل")
    DraftArticleFactory(
        created_by=reporter,
        status=Status.IN_REVIEW,
        headline_ar="ارتفاع أسعار الوقود للمرة الثالثة هذا العام",
    )
    DraftArticleFactory(
        created_by=reporter,
        status=Status.IN_REVIEW,
        headline_ar="Port authority names a new director",
    )
    ArticleFactory(
        headline_ar="افتتاح معرض الكتاب الدولي",
        published_at=now + timedelta(hours=5),
    )
    ArticleFactory(
        headline_ar="نتائج الامتحانات الوطنية",
        embargo_until=now + timedelta(days=1, hours=2),
    )
    for hours, headline in [
        (1, "أمطار غزيرة تغلق طرقاً في الشمال"),
        (3, "المنتخب يتأهل إلى النهائي"),
        (26, "إطلاق خدمة النقل العام الليلية"),
    ]:
        ArticleFactory(headline_ar=headline, published_at=now - timedelta(hours=hours))
    CorrectionFactory(article=ArticleFactory(headline_ar="حصيلة حادث الطريق السريع"))
    CorrectionFactory(
        article=ArticleFactory(headline_ar="موعد افتتاح الجسر الجديد"),
        kind=Correction.Kind.UPDATE,
        text_ar="أُضيف تصريح وزارة النقل.",
    )
    return editor, reporter


def open_home(browser, live_server, user, viewport):
    context = browser.new_context(viewport=viewport, locale="ar")
    page = context.new_page()
    log_in(page, live_server, user.username, PASSWORD)
    page.goto(f"{live_server.url}/admin/")
    return context, page


def shelves_on(page) -> dict[str, int]:
    """Each list on the page and how many stories it shows."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.desk-shelf')]
            .map(s => [s.className.match(/desk-shelf--(\\w+)/)[1],
                       s.querySelectorAll('.desk-rows li').length]))"""
    )


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_an_editor_sees_every_list_in_arabic(browser, live_server, newsroom, viewport):
    """Five lists with their stories, in Arabic, the apps below; no sideways scroll."""
    editor, _reporter = newsroom
    context, page = open_home(browser, live_server, editor, viewport)
    try:
        assert page.get_attribute("html", "dir") == "rtl"
        assert shelves_on(page) == {
            "drafts": 2,
            "review": 2,
            "scheduled": 2,
            "published": 5,
            "corrections": 2,
        }
        assert page.locator("#content-main .app-articles").is_visible()
        (ARTIFACTS / "dashboard").mkdir(parents=True, exist_ok=True)
        screenshot(page, f"dashboard/editor-{viewport['width']}")
        assert page_width(page) <= viewport["width"]
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_reporter_sees_their_drafts_and_the_published(
    browser, live_server, newsroom, viewport
):
    """No review, schedule or corrections lists for a reporter."""
    _editor, reporter = newsroom
    context, page = open_home(browser, live_server, reporter, viewport)
    try:
        assert list(shelves_on(page)) == ["drafts", "published"]
        assert shelves_on(page)["drafts"] == 1
        (ARTIFACTS / "dashboard").mkdir(parents=True, exist_ok=True)
        screenshot(page, f"dashboard/reporter-{viewport['width']}")
        assert page_width(page) <= viewport["width"]
    finally:
        context.close()


def test_a_row_opens_its_story(browser, live_server, newsroom):
    """Clicking a story in review opens its change page."""
    editor, _reporter = newsroom
    context, page = open_home(browser, live_server, editor, PHONE)
    try:
        page.click(".desk-shelf--review .desk-rows a >> nth=0")
        page.wait_for_url("**/change/")
        assert "ارتفاع أسعار الوقود" in page.content()
    finally:
        context.close()
