"""Rate limits: search, the import page and the post-pasting endpoint answer 429
with Retry-After and a clear message once a client goes over its share."""

import pytest
from django.urls import reverse

from core.ratelimit import rate_limit_wait
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SEARCH = "/en/search/?q=ports"
IMPORT = "/admin/articles/article/import/"


@pytest.fixture
def limits(settings):
    settings.RATE_LIMITS = {"search": (3, 60), "import": (2, 300), "recognize": (2, 60)}
    return settings.RATE_LIMITS


def test_search_over_the_limit_answers_429_with_retry_after(client, limits):
    """The fourth search in a minute is refused, saying how long to wait."""
    for _ in range(3):
        assert client.get(SEARCH).status_code == 200
    response = client.get(SEARCH)
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    text = response.content.decode()
    assert "Too many requests" in text and 'id="rate-limit-message"' in text


def test_search_limits_are_per_address(client, limits):
    """One address over its share is refused while another still gets its own."""
    for _ in range(3):
        client.get(SEARCH, REMOTE_ADDR="198.51.100.1")
    assert client.get(SEARCH, REMOTE_ADDR="198.51.100.1").status_code == 429
    assert client.get(SEARCH, REMOTE_ADDR="198.51.100.2").status_code == 200


def test_limits_can_be_turned_off(client, limits, settings):
    """RATE_LIMITS=0 lifts every limit."""
    settings.RATE_LIMITS_ENABLED = False
    assert all(client.get(SEARCH).status_code == 200 for _ in range(5))


def test_import_previews_over_the_limit_answer_429(admin_client, limits):
    """A third paste in five minutes is refused without being parsed."""
    for _ in range(2):
        assert admin_client.post(IMPORT, {"text": "عنوان\n\nفقرة"}).status_code == 200
    response = admin_client.post(IMPORT, {"text": "عنوان\n\nفقرة"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0


def test_opening_the_import_page_is_not_counted(admin_client, limits):
    """Only pastes count, not looking at the form: after opening it more times than
    the limit, the editor still has every paste of their share, and no more."""
    for _ in range(4):
        assert admin_client.get(IMPORT).status_code == 200
    for _ in range(2):
        assert admin_client.post(IMPORT, {"text": "عنوان\n\nفقرة"}).status_code == 200
    assert admin_client.post(IMPORT, {"text": "عنوان\n\nفقرة"}).status_code == 429


def test_import_limits_are_per_user(client, limits):
    """One editor over their share is refused; another editor still gets theirs."""
    first = UserFactory(username="one", is_staff=True, is_superuser=True)
    second = UserFactory(username="two", is_staff=True, is_superuser=True)
    client.force_login(first)
    for _ in range(2):
        client.post(IMPORT, {"text": "عنوان\n\nفقرة"})
    assert client.post(IMPORT, {"text": "عنوان\n\nفقرة"}).status_code == 429
    client.force_login(second)
    assert client.post(IMPORT, {"text": "عنوان\n\nفقرة"}).status_code == 200


def test_recognizing_posts_over_the_limit_answers_json_429(admin_client, limits):
    """The inline's script gets the message in the shape it shows."""
    url = reverse("admin:articles_article_recognize_post")
    admin_client.cookies["django_language"] = "en"
    for _ in range(2):
        response = admin_client.post(url, {"paste": "https://x.com/a/status/1"})
        assert response.status_code == 200
    response = admin_client.post(url, {"paste": "https://x.com/a/status/1"})
    assert response.status_code == 429 and response["Retry-After"]
    data = response.json()
    assert data["fields"] == {} and "Too many requests" in data["messages"][0]


def test_the_window_restarts(limits):
    """A fixed window: after it ends the count starts again."""
    for _ in range(3):
        assert rate_limit_wait(scope="search", key="k", now=1200.0) == 0
    assert rate_limit_wait(scope="search", key="k", now=1210.0) == 50
    assert rate_limit_wait(scope="search", key="k", now=1260.0) == 0
