"""Cached pages answered before Django's request handling (the WSGI application):
the same answer as Django's, never for editors or previews, purged with the pages."""

from urllib.parse import unquote_to_bytes, urlsplit
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.utils import translation

from articles.services import article_publish, preview_link_create
from publishing import page_cache
from publishing.page_cache_wsgi import OUTER_MIDDLEWARE, PageCacheApplication
from tests.factories import ArticleFactory, DraftArticleFactory, SuperuserFactory

pytestmark = pytest.mark.django_db

REQUEST_ID = "a-request-id-from-the-proxy"


@pytest.fixture(autouse=True)
def cache_on(settings):
    settings.PAGE_CACHE = True
    settings.PAGE_CACHE_SECONDS = 300


@pytest.fixture(autouse=True)
def connections_kept():
    """Django's handler closes the database connection at each request's start and
    end; the test's transaction holds it (as Django's test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


class Site:
    """The site's WSGI application, counting the requests Django handled."""

    def __init__(self):
        self.django = WSGIHandler()
        self.handled = 0
        self.application = PageCacheApplication(self._django)

    def _django(self, environ, start_response):
        self.handled += 1
        return self.django(environ, start_response)

    def get(self, url: str, *, django_only: bool = False, **headers):
        """(status, headers, body) as the WSGI server is handed them."""
        application = self.django if django_only else self.application
        started = []
        body = application(
            environ(url, **headers),
            lambda status, headers, exc_info=None: started.extend([status, headers]),
        )
        try:
            content = b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        return started[0], started[1], content


def environ(url: str, method: str = "GET", **headers) -> dict:
    """A request as a WSGI server passes it to the application."""
    address = urlsplit(url)
    values = {
        "REQUEST_METHOD": method,
        "PATH_INFO": unquote_to_bytes(address.path).decode("iso-8859-1"),
        "QUERY_STRING": address.query,
        "SCRIPT_NAME": "",
        "HTTP_HOST": "testserver",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        **headers,
    }
    setup_testing_defaults(values)
    return values


def header(answer, name: str) -> str | None:
    return dict(answer[1]).get(name)


@pytest.fixture
def site():
    return Site()


@pytest.fixture
def story_url():
    with translation.override("ar"):
        return ArticleFactory().get_absolute_url()


def warmed(site: Site, url: str, **headers) -> None:
    """Rendered and stored, then served once by the page cache middleware, whose
    answer is what the WSGI application keeps."""
    assert header(site.get(url, **headers), "X-Page-Cache") == "miss"
    assert header(site.get(url, **headers), "X-Page-Cache") == "hit"


def test_a_cached_page_is_answered_without_django(site, story_url):
    """The third reader of a page is answered before Django's request handling."""
    warmed(site, story_url)
    handled = site.handled
    status, _headers, _body = site.get(story_url)
    assert status == "200 OK"
    assert site.handled == handled


def test_the_answer_is_the_one_django_gives_header_by_header(site, story_url):
    """Status, every header in its order and the body are Django's for a hit."""
    warmed(site, story_url, HTTP_X_REQUEST_ID=REQUEST_ID)
    early = site.get(story_url, HTTP_X_REQUEST_ID=REQUEST_ID)
    django = site.get(story_url, django_only=True, HTTP_X_REQUEST_ID=REQUEST_ID)
    assert early[0] == django[0]
    assert early[1] == django[1]
    assert early[2] == django[2]
    for name in (
        "Content-Security-Policy",
        "Permissions-Policy",
        "Cross-Origin-Resource-Policy",
        "Cross-Origin-Opener-Policy",
        "X-Content-Type-Options",
        "Referrer-Policy",
        "X-Frame-Options",
        "Content-Language",
        "Cache-Control",
        "ETag",
        "Last-Modified",
        "Content-Length",
        "X-Page-Cache",
    ):
        assert header(early, name), name


def test_each_answer_has_a_request_id_of_its_own(site, story_url):
    """The request id is the one header made afresh: the proxy's, or a new one."""
    warmed(site, story_url)
    first, second = site.get(story_url), site.get(story_url)
    assert header(first, "X-Request-ID") != header(second, "X-Request-ID")
    assert len(header(first, "X-Request-ID")) == 32
    sent = site.get(story_url, HTTP_X_REQUEST_ID=REQUEST_ID)
    assert header(sent, "X-Request-ID") == REQUEST_ID


def test_a_revalidation_is_answered_304_as_django_answers_it(site, story_url):
    """A browser sending the page's ETag gets Django's 304, headers and all."""
    etag = header(site.get(story_url), "ETag")
    conditional = {"HTTP_IF_NONE_MATCH": etag, "HTTP_X_REQUEST_ID": REQUEST_ID}
    site.get(story_url, **conditional)
    handled = site.handled
    early = site.get(story_url, **conditional)
    django = site.get(story_url, django_only=True, **conditional)
    assert site.handled == handled
    assert early == django
    assert early[0].startswith("304")


def test_a_revalidation_is_not_answered_with_the_full_page(site, story_url):
    """The conditional headers are part of what an answer is kept under."""
    etag = header(site.get(story_url), "ETag")
    site.get(story_url, HTTP_IF_NONE_MATCH=etag)
    site.get(story_url, HTTP_IF_NONE_MATCH=etag)
    assert site.get(story_url)[0] == "200 OK"
    assert site.get(story_url, HTTP_IF_NONE_MATCH=etag)[0].startswith("304")


def test_a_head_request_is_answered_as_django_answers_it(site, story_url):
    """HEAD has answers of its own, Django's."""
    warmed(site, story_url, method="HEAD", HTTP_X_REQUEST_ID=REQUEST_ID)
    handled = site.handled
    early = site.get(story_url, method="HEAD", HTTP_X_REQUEST_ID=REQUEST_ID)
    assert site.handled == handled
    assert early == site.get(
        story_url, django_only=True, method="HEAD", HTTP_X_REQUEST_ID=REQUEST_ID
    )


def test_a_logged_in_editor_is_never_answered_before_django(site, story_url, client):
    """A request with a session cookie goes to Django, which renders it afresh."""
    warmed(site, story_url)
    client.force_login(SuperuserFactory())
    session = f"sessionid={client.cookies['sessionid'].value}"
    handled = site.handled
    for _ in range(2):
        answer = site.get(story_url, HTTP_COOKIE=session)
        assert header(answer, "X-Page-Cache") is None
    assert site.handled == handled + 2


def test_a_reader_with_other_cookies_is_answered_as_any_reader(site, story_url):
    """The language and CSRF cookies do not change a cached page."""
    warmed(site, story_url)
    handled = site.handled
    site.get(story_url, HTTP_COOKIE="csrftoken=x; django_language=en")
    assert site.handled == handled


def test_a_purge_is_seen_at_once(site, story_url):
    """After a purge in this worker, the next reader is answered by Django."""
    warmed(site, story_url)
    page_cache.purge_pages()
    handled = site.handled
    answer = site.get(story_url)
    assert site.handled == handled + 1
    assert header(answer, "X-Page-Cache") == "miss"


def test_a_published_story_shows_on_the_next_answer(
    site, django_capture_on_commit_callbacks
):
    """A change committed through a service purges the answers kept for the home
    page: the next reader sees the new story."""
    draft = DraftArticleFactory(headline_ar="خبر ينشر بعد أن حفظت الصفحة")
    ArticleFactory()
    warmed(site, "/ar/")
    assert draft.headline_ar not in site.get("/ar/")[2].decode()
    with django_capture_on_commit_callbacks(execute=True):
        article_publish(article=draft, by=SuperuserFactory())
    assert draft.headline_ar in site.get("/ar/")[2].decode()


def test_an_answer_lives_no_longer_than_the_workers_copy_of_the_page(
    site, story_url, monkeypatch
):
    """After PAGE_CACHE_LOCAL_SECONDS the answer is dropped with the page, so a
    purge in another worker reaches this one in that time."""
    warmed(site, story_url)
    later = page_cache.monotonic() + page_cache.settings.PAGE_CACHE_LOCAL_SECONDS
    monkeypatch.setattr(page_cache, "monotonic", lambda: later)
    handled = site.handled
    site.get(story_url)
    assert site.handled == handled + 1


def test_no_answer_is_kept_without_the_workers_copies(site, story_url, settings):
    """PAGE_CACHE_LOCAL_SECONDS=0: every reader goes to the page cache middleware."""
    settings.PAGE_CACHE_LOCAL_SECONDS = 0
    warmed(site, story_url)
    handled = site.handled
    site.get(story_url)
    assert site.handled == handled + 1


def test_a_preview_is_never_answered_before_django(site):
    """A share link's page is not a cached page: Django answers every time."""
    editor = SuperuserFactory()
    link = preview_link_create(article=DraftArticleFactory(), by=editor)
    with translation.override("ar"):
        url = link.get_absolute_url()
    for _ in range(3):
        answer = site.get(url)
        assert answer[0] == "200 OK"
        assert header(answer, "X-Page-Cache") is None
    assert site.handled == 3


def test_the_admin_is_never_answered_before_django(site):
    """The admin's login page goes to Django every time."""
    for _ in range(3):
        site.get("/admin/login/")
    assert site.handled == 3


def test_parameters_the_page_does_not_read_share_its_answer(site, story_url):
    """Tracking parameters on an article are the article's answer, as they are
    the article's cached page."""
    warmed(site, story_url)
    handled = site.handled
    tracked = site.get(f"{story_url}?utm_source=x&fbclid=y")
    assert site.handled == handled
    assert tracked[2] == site.get(story_url)[2]


def test_a_parameter_the_page_reads_keeps_its_answer_apart(site):
    """`?page=2` of the home page is not the first page's answer."""
    ArticleFactory()
    warmed(site, "/ar/")
    handled = site.handled
    site.get("/ar/?page=2")
    assert site.handled == handled + 1


def test_a_nul_in_the_query_string_is_answered_by_django(site, story_url):
    """A NUL in any parameter is the site's 404, whatever is kept for the page."""
    warmed(site, story_url)
    assert site.get(f"{story_url}?x=%00")[0].startswith("404")


def test_an_answer_costs_no_query(site, story_url, django_assert_num_queries):
    """Answered in front of Django: no query, no cache read."""
    warmed(site, story_url)
    with django_assert_num_queries(0):
        site.get(story_url)


def test_https_and_plain_http_are_answered_apart(site, story_url, settings):
    """Behind a TLS proxy, HSTS goes only with the answers to HTTPS requests."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 3600
    site = Site()
    secure = {"HTTP_X_FORWARDED_PROTO": "https"}
    warmed(site, story_url, **secure)
    assert header(site.get(story_url, **secure), "Strict-Transport-Security")
    assert header(site.get(story_url), "Strict-Transport-Security") is None


def test_other_middleware_in_front_of_the_page_cache_turns_it_off(settings):
    """A middleware not checked to depend on nothing else of the request could add
    what an answer kept for one reader must not give another."""
    assert Site().application.enabled
    page_cache_at = settings.MIDDLEWARE.index(
        "publishing.page_cache.PageCacheMiddleware"
    )
    assert tuple(settings.MIDDLEWARE[:page_cache_at]) == OUTER_MIDDLEWARE
    settings.MIDDLEWARE = [
        "django.contrib.sessions.middleware.SessionMiddleware",
        *settings.MIDDLEWARE,
    ]
    assert not Site().application.enabled


def test_page_cache_off_answers_nothing_before_django(site, story_url, settings):
    """PAGE_CACHE=0: every request goes to Django."""
    warmed(site, story_url)
    settings.PAGE_CACHE = False
    handled = site.handled
    site.get(story_url)
    assert site.handled == handled + 1
