"""Public pages tell the browser to run nothing from anywhere else."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_public_pages_send_a_strict_content_security_policy(client):
    """Scripts and styles may come only from our own site."""
    response = client.get(reverse("articles:home"))
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy


def test_admin_pages_keep_their_own_policy(admin_client):
    """The admin is left to Django's own headers."""
    response = admin_client.get(reverse("admin:index"))
    assert "Content-Security-Policy" not in response.headers


def test_an_oversized_request_gets_a_page_that_says_why(admin_client, settings):
    """A body over the upload limit is answered with a readable message."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = admin_client.post(
        "/admin/articles/article/import/", {"text": "x" * 4096}
    )
    assert response.status_code == 400
    assert "larger than the site accepts" in response.content.decode()
