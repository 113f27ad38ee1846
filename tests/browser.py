"""Headless Chromium for the browser tests (Debian's /usr/bin/chromium via Playwright).

Without Chromium the tests are skipped, unless REQUIRE_BROWSER=1 (set by .ci/run)
turns that into a failure. Screenshots go to `artifacts/` (ignored by git).
"""

import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def unavailable(reason: str):
    """Skip on a developer's machine; fail where the browser is required (CI)."""
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(django_db_setup):
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        unavailable("Playwright is not installed (pip install -r requirements-dev.txt)")
    if not CHROMIUM.exists():
        unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    # Playwright's sync API keeps an asyncio loop running in this thread, which makes
    # Django refuse ORM calls (the factories) as if they came from async code. The
    # loop only drives the browser, so allow them while it runs, and only then: the
    # module scope stops the loop before any other test module runs.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        try:
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
        except Error as error:
            unavailable(f"Chromium at {CHROMIUM} did not start: {error}")
        yield chromium
        chromium.close()


def screenshot(page, name: str) -> Path:
    """Save the page as artifacts/<name>.png for people to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
