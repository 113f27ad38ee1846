"""In Chromium, the admin and the public pages run under their policy without a
single Content-Security-Policy violation (nothing of ours is refused).

Run with the `browser` marker; skipped without Chromium (see tests/browser.py).
"""

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import (
    ArticleFactory,
    SocialPostFactory,
    SuperuserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Added before any page script runs; Playwright's own script is not subject to CSP.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` (${event.sourceFile}:${event.lineNumber})`
  );
});
"""


@pytest.fixture
def story():
    story = ArticleFactory(
        headline_ar="الموانئ تستأنف العمل",
        body_ar="<p>الفقرة الأولى.</p><blockquote><p>قول منقول.</p></blockquote>",
    )
    story.tags.add("الموانئ")
    SocialPostFactory(article=story, text="Talks resume #ports")
    return story


# Console errors that come from our headers (a missing favicon is not one).
HEADER_ERRORS = ("Content Security Policy", "Refused to", "Permissions-Policy")


def open_and_collect(context, url: str) -> list[str]:
    """Load `url`; return its CSP violations, header errors and script errors."""
    page = context.new_page()
    problems: list[str] = []

    def on_console(message) -> None:
        if message.type == "error" and any(
            marker in message.text for marker in HEADER_ERRORS
        ):
            problems.append(f"console error: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"page error: {error.stack}"))
    response = page.goto(url, wait_until="networkidle")
    assert response is not None and response.status == 200, url
    problems += page.evaluate("window.__violations")
    page.close()
    return problems


@pytest.fixture
def context(browser):
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    yield context
    context.close()


@pytest.fixture
def editor_context(context, live_server):
    """A browser logged in to the admin as a superuser."""
    client = Client()
    client.force_login(SuperuserFactory(username="chief"))
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context


def test_a_public_article_runs_without_csp_violations(live_server, context, story):
    """The article page (and the site script) load with no violation or error."""
    problems = open_and_collect(context, live_server.url + story.get_absolute_url())
    assert problems == []


def test_the_front_page_runs_without_csp_violations(live_server, context, story):
    """The front page loads with no violation or error."""
    assert open_and_collect(context, live_server.url + "/ar/") == []


@pytest.mark.parametrize(
    "path",
    [
        "/admin/articles/article/{pk}/change/",
        "/admin/articles/article/add/",
        "/admin/articles/article/",
        "/admin/articles/article/import/",
        "/admin/",
    ],
)
def test_admin_pages_run_without_csp_violations(
    live_server, editor_context, story, path
):
    """The admin's scripts, styles and widgets load with no violation or error."""
    url = live_server.url + path.format(pk=story.pk)
    assert open_and_collect(editor_context, url) == []


def test_an_admin_popup_adds_a_section_without_csp_violations(
    live_server, editor_context, story
):
    """The "add another" popup is a same-origin window, not a frame: it opens under
    frame-ancestors 'none' and COOP, saves, and hands the new section back to the
    story's form; the autocomplete's search requests are allowed too."""
    refused: list[str] = []  # from every page of the context, the popup included
    editor_context.on(
        "console",
        lambda message: (
            refused.append(message.text)
            if message.type == "error"
            and any(marker in message.text for marker in HEADER_ERRORS)
            else None
        ),
    )
    page = editor_context.new_page()
    page.goto(
        f"{live_server.url}/admin/articles/article/{story.pk}/change/",
        wait_until="networkidle",
    )
    with page.expect_popup() as opened:
        page.click("#add_id_section")
    popup = opened.value
    popup.wait_for_load_state("networkidle")
    popup.fill("#id_name_ar", "اقتصاد")
    popup.fill("#id_slug", "economy")
    with popup.expect_event("close"):
        popup.click("input[name=_save]")
    assert page.locator("#id_section option:checked").inner_text() == "اقتصاد"

    # The autocomplete asks the admin for matches (connect-src 'self').
    page.click(".field-section .select2-selection")
    page.fill(".select2-search__field", "اقت")
    page.wait_for_selector(".select2-results__option:has-text('اقتصاد')")
    assert page.evaluate("window.__violations") == []
    assert refused == []
    page.close()


def test_an_import_preview_runs_without_csp_violations(live_server, editor_context):
    """Pasting a story and asking for the preview shows it with no violation."""
    page = editor_context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error.stack}"))
    page.goto(f"{live_server.url}/admin/articles/article/import/")
    page.fill(
        "textarea[name=text]",
        "الموانئ تستأنف العمل\n\nعادت السفن إلى الأرصفة صباح اليوم.\n\n"
        "وقال مسؤول إن الجداول ستعلن لاحقا.",
    )
    page.click("input[name=preview]")
    page.wait_for_load_state("networkidle")
    assert page.locator("input[name=confirm]").count() == 1, "no preview shown"
    assert problems + page.evaluate("window.__violations") == []
    page.close()
