"""Every response, the admin's included, carries the security headers, and scores
at least 100 on an Observatory-style scale (tests/observatory.py)."""

import base64
import hashlib
import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.template import RequestContext, Template
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from core.security import ADMIN_POLICY, CspNonce, SecurityHeadersMiddleware
from newsroom.settings.https import https_profile
from publishing.page_cache import PageCacheMiddleware
from tests.factories import ArticleFactory, SuperuserFactory
from tests.observatory import observatory_score, parse_csp

pytestmark = pytest.mark.django_db

# What the TLS-terminating proxy adds to every request it forwards.
OVER_TLS = {"HTTP_X_FORWARDED_PROTO": "https"}


@pytest.fixture
def production_https(settings):
    """The HTTPS profile production runs with (newsroom/settings/https.py)."""
    for name, value in https_profile().items():
        setattr(settings, name, value)


def assert_scores_at_least_100(client, path, **extra):
    response = client.get(path, **OVER_TLS, **extra)
    assert response.status_code == 200, path
    over_http = client.get(path)
    score = observatory_score(response, redirects_http=over_http)
    assert score.total >= 100, f"{path} scores {score}"
    return score


def test_a_public_article_scores_at_least_100(client, production_https):
    """A public article over HTTPS scores 100 or more, HSTS and redirect included."""
    story = ArticleFactory()
    score = assert_scores_at_least_100(client, story.get_absolute_url())
    print(f"public article: {score}")


def test_the_front_page_scores_at_least_100(client, production_https):
    """The front page over HTTPS scores 100 or more."""
    ArticleFactory()
    assert_scores_at_least_100(client, reverse("articles:home"))


def test_the_admin_login_scores_at_least_100_with_its_cookies(client, production_https):
    """Logging in sets secure, HttpOnly, SameSite cookies and scores 100 or more."""
    SuperuserFactory(username="chief", password="a-long-enough-password")
    login = reverse("admin:login")
    client.get(login, **OVER_TLS)
    response = client.post(
        login,
        {"username": "chief", "password": "a-long-enough-password"},
        **OVER_TLS,
    )
    assert response.status_code == 302
    assert "sessionid" in response.cookies
    score = observatory_score(response)
    assert score.findings["cookies"] == 5, score
    assert score.total >= 100, f"admin login scores {score}"
    print(f"admin login: {score}")


def test_an_admin_change_page_scores_at_least_100(admin_client, production_https):
    """The article change form in the admin scores 100 or more."""
    story = ArticleFactory()
    path = reverse("admin:articles_article_change", args=[story.pk])
    score = assert_scores_at_least_100(admin_client, path)
    print(f"admin change page: {score}")


def test_no_policy_allows_inline_scripts(client, admin_client):
    """Neither the public nor the admin policy has 'unsafe-inline' or 'unsafe-eval'."""
    ArticleFactory()
    for response in (
        client.get(reverse("articles:home")),
        admin_client.get(reverse("admin:index")),
    ):
        policy = parse_csp(response.headers["Content-Security-Policy"])
        for directive in ("script-src", "style-src"):
            assert "'unsafe-inline'" not in policy[directive]
            assert "'unsafe-eval'" not in policy[directive]
        assert policy["default-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]


def test_every_response_carries_the_other_security_headers(client):
    """nosniff, Referrer-Policy, Permissions-Policy, COOP and CORP, even on a 404."""
    response = client.get("/ar/no-such-page-anywhere/")
    assert response.status_code == 404
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "camera=()" in response.headers["Permissions-Policy"]
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert "Content-Security-Policy" in response.headers


def test_a_page_without_inline_code_sends_no_nonce(client):
    """A nonce enters the policy only when a template printed it."""
    ArticleFactory()
    policy = client.get(reverse("articles:home")).headers["Content-Security-Policy"]
    assert "'nonce-" not in policy


def test_a_printed_nonce_is_allowed_by_that_responses_policy(admin_client):
    """The import page's inline style carries the nonce its own header allows."""
    response = admin_client.get("/admin/articles/article/import/")
    nonce = re.search(r'<style nonce="([^"]+)"', response.content.decode())[1]
    policy = parse_csp(response.headers["Content-Security-Policy"])
    assert f"'nonce-{nonce}'" in policy["style-src"]
    assert f"'nonce-{nonce}'" in policy["script-src"]


def test_templates_can_print_the_nonce_as_csp_nonce(rf):
    """`{{ csp_nonce }}` prints the request's nonce, which then counts as used."""
    request = rf.get("/admin/")
    request.csp_nonce = CspNonce()
    printed = Template('<script nonce="{{ csp_nonce }}"></script>').render(
        RequestContext(request)
    )
    assert request.csp_nonce.used
    assert f'nonce="{request.csp_nonce}"' in printed


def test_two_requests_get_different_nonces(admin_client):
    """Each response's nonce is new, so one seen in a page cannot be reused."""
    policies = {
        admin_client.get("/admin/articles/article/import/").headers[
            "Content-Security-Policy"
        ]
        for _ in range(2)
    }
    assert len(policies) == 2


def test_the_admin_change_list_style_is_allowed_by_its_hash(admin_client, monkeypatch):
    """The <style> Django prints on a change list without action bars matches the
    hash the admin policy allows, so the admin needs no 'unsafe-inline' for styles."""
    model_admin = admin.site._registry[AuditEvent]
    monkeypatch.setattr(model_admin, "actions_on_top", False)
    monkeypatch.setattr(model_admin, "actions_on_bottom", False)
    response = admin_client.get(reverse("admin:audit_auditevent_changelist"))
    blocks = re.findall(r"<style>(.*?)</style>", response.content.decode(), re.S)
    assert blocks, "the audit trail's change list prints no inline style any more"
    for block in blocks:
        digest = base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in ADMIN_POLICY["style-src"]


def test_a_plain_http_request_is_redirected_to_https(client, production_https):
    """Behind the proxy, a request that came in over HTTP is sent to HTTPS."""
    response = client.get(reverse("articles:home"))
    assert response.status_code == 301
    assert response.headers["Location"].startswith("https://")


def test_an_oversized_request_gets_a_page_that_says_why(admin_client, settings):
    """A body over the upload limit is answered with a readable message."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = admin_client.post(
        "/admin/articles/article/import/", {"text": "x" * 4096}
    )
    assert response.status_code == 400
    assert "larger than the site accepts" in response.content.decode()


def test_a_page_that_printed_a_nonce_is_never_put_in_the_page_cache(rf, settings):
    """Replayed later, its nonce would not match the new header: it is not stored."""
    settings.PAGE_CACHE = True

    def page(request):
        return HttpResponse(f'<script nonce="{request.csp_nonce}">go()</script>')

    middleware = SecurityHeadersMiddleware(PageCacheMiddleware(page))
    answers = []
    for _ in range(2):
        request = rf.get("/ar/")
        request.user = AnonymousUser()
        answers.append(middleware(request))
    assert "X-Page-Cache" not in answers[1]
    nonces = [
        re.search(r"'nonce-([^']+)'", a["Content-Security-Policy"])[1] for a in answers
    ]
    assert nonces[0] != nonces[1]
    assert f'nonce="{nonces[1]}"' in answers[1].content.decode()


def test_pictures_from_an_external_media_server_are_allowed(client, settings):
    """With MEDIA_URL on another server, its origin (only) joins img-src."""
    settings.MEDIA_URL = "https://media.example.com/newsroom/"
    ArticleFactory()
    policy = parse_csp(
        client.get(reverse("articles:home")).headers["Content-Security-Policy"]
    )
    assert policy["img-src"] == ["'self'", "data:", "https://media.example.com"]
    assert policy["script-src"] == ["'self'"]


def test_the_csrf_failure_page_has_nothing_inline_the_policy_blocks(db):
    """A form sent without its token gets a page that runs under the policy (no
    inline style or script), in the edition's language and direction."""
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "<style" not in html and "style=" not in html and "<script" not in html
    assert 'lang="ar" dir="rtl"' in html
    assert "تعذّر إرسال النموذج" in html
