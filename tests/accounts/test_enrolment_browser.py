"""A source manager's first sign-in with two factors, in Chromium, in Arabic at
1280 and 390 px: the password, the code e-mailed to them, the authenticator, the
backup codes. Screenshots go to artifacts/enrolment/."""

import pytest
from django.core import mail
from django_otp.plugins.otp_totp.models import TOTPDevice

from core.roles import SOURCE_MANAGERS
from tests.accounts.steps import PASSWORD, code_for, mailed_code
from tests.browser import DESKTOP, PHONE, log_in, screenshot
from tests.factories import member_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_source_manager_enrols_with_the_mailed_code(
    browser, live_server, settings, size
):
    settings.OTP_REQUIRED_FOR_PERMISSIONS = ["wire.add_channel"]
    user = member_of(SOURCE_MANAGERS, username="hadi", email="hadi@newsroom.test")
    context = browser.new_context(viewport=size, locale="ar")
    page = context.new_page()
    name = f"enrolment/{'phone' if size is PHONE else 'desktop'}"
    log_in(page, live_server, "hadi", PASSWORD)
    assert "/admin/two-factor/" in page.url
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.locator(".otp-qr").count() == 0
    screenshot(page, f"{name}-1-prove")
    assert no_sideways_scroll(page)

    mail.outbox.clear()
    page.click("button[name=send_code]")
    page.wait_for_selector(".enrolment-sent")
    assert "h***@newsroom.test" in page.inner_text(".enrolment-sent")
    page.fill("#id_enrolment_code", mailed_code())
    page.click("form:has(#id_enrolment_code) input[type=submit]")
    page.wait_for_selector(".otp-qr")
    screenshot(page, f"{name}-2-authenticator")
    assert no_sideways_scroll(page)

    page.fill("#id_otp_token", code_for(TOTPDevice.objects.get(user=user)))
    page.click("form:has(#id_otp_token) input[type=submit]")
    page.wait_for_selector(".backup-codes")
    screenshot(page, f"{name}-3-backup-codes")
    assert page.locator(".backup-codes li").count() == 10
    context.close()
