"""In Chromium, an editor (a plain member of Editors) reads the incoming wire right
to left, without a CSP violation, and takes an item into a draft."""

import pytest
from django.conf import settings
from django.test import Client

from core.roles import EDITORS
from tests.browser import screenshot
from tests.factories import member_of
from wire.channels import channel_poll
from wire.models import AgencyItem

from .conftest import NOW, drop

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} blocked ${event.blockedURI}`);
});
"""


@pytest.fixture
def desk(browser, live_server):
    client = Client()
    client.force_login(member_of(EDITORS, username="browser-editor"))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(RECORD_VIOLATIONS)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    yield context
    context.close()


def test_an_editor_takes_an_arabic_item_from_the_incoming_wire(
    desk, live_server, folder_channel
):
    drop(folder_channel, "oasis_package_ar_v1.xml")
    drop(folder_channel, "oasis_flash_en.json")
    channel_poll(folder_channel, now=NOW)
    page = desk.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/admin/wire/agencyitem/", wait_until="networkidle")
    assert page.locator("html").get_attribute("dir") == "rtl"
    row = page.locator("tr", has_text="افتتاح سوق الواحة القديم")
    headline = row.locator("span[lang=ar]")
    assert headline.evaluate("node => getComputedStyle(node).direction") == "rtl"
    screenshot(page, "wire_incoming")
    assert page.evaluate("window.__violations") == []
    row.locator("button[type=submit]").click()
    page.wait_for_url(lambda url: "/admin/articles/article/" in url)
    assert errors == []
    item = AgencyItem.objects.get(headline__startswith="افتتاح")
    assert f"/admin/articles/article/{item.article_id}/change/" in page.url
