"""The page cache: readers get cached pages, editors never; changes purge; scheduled
stories and embargo lifts appear on time; 304 for unchanged pages."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.urls import URLResolver, get_resolver, path, reverse
from django.utils import timezone, translation

from articles.models import Article
from articles.services import StoryEdit, article_publish, article_save
from edge.keys import EVERYTHING
from publishing import page_cache
from publishing.views import HomeView
from tests.factories import ArticleFactory, DraftArticleFactory, SuperuserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cache_on(settings):
    settings.PAGE_CACHE = True
    settings.PAGE_CACHE_SECONDS = 300


def test_a_second_visit_is_served_from_the_cache(client):
    """The first anonymous visit renders the page, the second is a hit."""
    ArticleFactory()
    assert client.get("/ar/")["X-Page-Cache"] == "miss"
    assert client.get("/ar/")["X-Page-Cache"] == "hit"


def test_a_parameter_the_page_reads_keeps_it_apart(client):
    """A query parameter the view reads is part of the address a page is kept under."""
    ArticleFactory()
    client.get("/ar/")
    assert client.get("/ar/", {"page": "1"})["X-Page-Cache"] == "miss"
    assert client.get("/ar/", {"page": "1"})["X-Page-Cache"] == "hit"
    assert client.get("/ar/")["X-Page-Cache"] == "hit"


def test_parameters_the_page_does_not_read_share_one_entry(client):
    """`?x=1` and `?x=2` on the home page are one cached page, the bare page's."""
    ArticleFactory()
    first = client.get("/ar/?x=1")
    second = client.get("/ar/?x=2")
    assert first["X-Page-Cache"] == "miss"
    assert second["X-Page-Cache"] == "hit"
    assert second.content == first.content
    assert client.get("/ar/")["X-Page-Cache"] == "hit"


def test_a_parameter_the_page_does_not_read_never_reaches_the_page(client):
    """The page stored for every reader carries no link with another's extra
    parameter (the language switch and pagination build links from the query)."""
    ArticleFactory()
    response = client.get("/ar/?x=planted")
    assert response["X-Page-Cache"] == "miss"
    assert "planted" not in response.content.decode()


def test_each_numbered_page_is_kept_apart(client, monkeypatch):
    """`?page=2` is its own page, not the first page's."""
    monkeypatch.setattr(HomeView, "paginate_by", 1)
    older = ArticleFactory(published_at=timezone.now() - timedelta(hours=2))
    ArticleFactory()
    client.get("/ar/", {"page": "1"})
    response = client.get("/ar/", {"page": "2"})
    assert response["X-Page-Cache"] == "miss"
    assert older.headline_ar in response.content.decode()


def test_the_order_of_parameters_does_not_matter(client):
    """The same parameters in another order are the same cached page."""
    ArticleFactory()
    assert client.get("/ar/?page=1&before=x")["X-Page-Cache"] == "miss"
    assert client.get("/ar/?before=x&page=1")["X-Page-Cache"] == "hit"


def test_a_repeated_parameter_is_the_last_value_the_view_reads(client):
    """`?page=5&page=1` is `?page=1`, the value request.GET.get() gives the view."""
    ArticleFactory()
    client.get("/ar/?page=1")
    response = client.get("/ar/?page=5&page=1")
    assert response.status_code == 200
    assert response["X-Page-Cache"] == "hit"


def test_a_page_is_found_under_the_language_its_address_names(client):
    """The page cache looks the route up before the language is set: an English
    page asked with a query string is still the English page's entry."""
    ArticleFactory(headline_en="In English")
    client.get("/en/")
    translation.activate("ar")  # as an Arabic reader's request leaves the worker
    assert client.get("/en/?x=1")["X-Page-Cache"] == "hit"


def test_an_address_no_page_answers_is_not_stored(client):
    """With a query string and no route, the request goes on (to its 404) uncached."""
    response = client.get("/ar/nowhere/?x=1")
    assert response.status_code == 404
    assert "X-Page-Cache" not in response


def test_a_page_that_reads_no_parameter_ignores_them_all(client):
    """An article asked for with tracking parameters is the article's cached page."""
    with translation.override("ar"):
        url = ArticleFactory().get_absolute_url()
    client.get(url)
    assert client.get(url, {"utm_source": "x"})["X-Page-Cache"] == "hit"


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.callback


def test_every_public_route_says_which_parameters_it_reads():
    """A public page without `query_parameters` would go uncached whenever a link
    adds a query string (a share's tracking parameters), so every one declares it."""
    # The partners' API is never a cached page (page_cache._NEVER).
    private = ("admin/", "i18n/", "healthz", "preview/", "api/")
    undeclared = [
        route
        for route, view in _routes(get_resolver().url_patterns)
        if not any(part in route for part in private)
        and page_cache.declared_parameters(view) is None
    ]
    assert undeclared == []


def undeclared(request):
    return HttpResponse("undeclared")


def declared(request):
    return HttpResponse("declared")


urlpatterns = [
    path("undeclared/", undeclared),
    path("declared/", page_cache.reads_query()(declared)),
]


@pytest.mark.urls(__name__)
def test_a_route_that_does_not_say_what_it_reads_is_not_cached_with_a_query(client):
    """Without `query_parameters` a page asked for with a query string is rendered
    and not stored; without a query string it is cached as before."""
    assert "X-Page-Cache" not in client.get("/undeclared/?x=1")
    assert client.get("/undeclared/")["X-Page-Cache"] == "miss"


@pytest.mark.urls(__name__)
def test_a_function_view_declares_what_it_reads_with_reads_query(client):
    """reads_query() on a function view lets its pages be cached with a query."""
    assert client.get("/declared/?x=1")["X-Page-Cache"] == "miss"
    assert client.get("/declared/?x=2")["X-Page-Cache"] == "hit"


def test_a_cached_page_costs_no_query(client, django_assert_num_queries):
    """A hit reads the cache only."""
    ArticleFactory()
    client.get("/ar/")
    with django_assert_num_queries(0):
        client.get("/ar/")


def test_cached_pages_say_so_to_a_cdn(client):
    """Cache-Control is public with an s-maxage."""
    response = client.get("/ar/")
    assert "public" in response["Cache-Control"]
    assert "s-maxage=300" in response["Cache-Control"]


def test_an_editor_is_never_served_from_the_cache(client):
    """A logged-in user gets a fresh page and does not fill the cache."""
    client.force_login(SuperuserFactory())
    assert "X-Page-Cache" not in client.get("/ar/")
    assert "X-Page-Cache" not in client.get("/ar/")


def test_the_admin_is_never_cached(client):
    """Admin pages are not public pages."""
    assert "X-Page-Cache" not in client.get(reverse("admin:login"))


def test_publishing_purges_the_cached_pages(client, django_capture_on_commit_callbacks):
    """A story published through the desk shows on the next visit to the home page."""
    editor = SuperuserFactory()
    draft = DraftArticleFactory(headline_ar="خبر جديد ينشر الآن")
    assert "خبر جديد ينشر الآن" not in client.get("/ar/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        article_publish(article=draft, by=editor)
    assert "خبر جديد ينشر الآن" in client.get("/ar/").content.decode()


def test_a_committed_change_starts_a_new_generation(
    client, django_capture_on_commit_callbacks
):
    """After a change commits, the next visit renders the page afresh."""
    editor = SuperuserFactory()
    article = ArticleFactory(headline_ar="عنوان قديم")
    with translation.override("ar"):
        url = article.get_absolute_url()
    client.get(url)
    article = Article.objects.get(pk=article.pk)
    article.headline_ar = "عنوان جديد"
    with django_capture_on_commit_callbacks(execute=True):
        article_save(edit=StoryEdit(article=article), by=editor)
    with translation.override("ar"):
        url = article.get_absolute_url()
    response = client.get(url)
    assert response["X-Page-Cache"] == "miss"
    assert "عنوان جديد" in response.content.decode()


def _purge_in_another_worker(*keys: str) -> None:
    """What purge_pages does in another process: the keys' counters moved in the
    shared cache (all of them: every page's)."""
    page_cache.purge_shared(keys or [EVERYTHING])


def test_a_purge_in_another_worker_is_seen_on_the_next_request(client, settings):
    """Without the worker's own copies, a hit reads the generation with the page."""
    settings.PAGE_CACHE_LOCAL_SECONDS = 0
    ArticleFactory()
    client.get("/ar/")
    _purge_in_another_worker()
    assert client.get("/ar/")["X-Page-Cache"] == "miss"
    assert client.get("/ar/")["X-Page-Cache"] == "hit"


def test_a_worker_answers_a_page_it_just_served_without_the_shared_cache(client):
    """Within PAGE_CACHE_LOCAL_SECONDS the worker's own copy answers."""
    ArticleFactory()
    client.get("/ar/")
    cache.clear()
    assert client.get("/ar/")["X-Page-Cache"] == "hit"


def test_a_purge_in_another_worker_reaches_this_one_within_the_local_seconds(
    client, monkeypatch
):
    """The worker's copy of a page is dropped after PAGE_CACHE_LOCAL_SECONDS."""
    ArticleFactory()
    client.get("/ar/")
    _purge_in_another_worker()
    later = page_cache.monotonic() + page_cache.settings.PAGE_CACHE_LOCAL_SECONDS
    monkeypatch.setattr(page_cache, "monotonic", lambda: later)
    assert client.get("/ar/")["X-Page-Cache"] == "miss"


def test_a_purge_in_this_worker_drops_its_own_copies_at_once(client):
    """purge_pages clears the worker's memory as well as the shared generation."""
    ArticleFactory()
    client.get("/ar/")
    page_cache.purge_pages()
    assert client.get("/ar/")["X-Page-Cache"] == "miss"


def test_a_page_rendered_while_a_change_committed_is_stored_as_stale(rf):
    """A page keeps the generation it began in, so it is not served after a purge."""

    def render_while_a_change_commits(request):
        response = HttpResponse("page")
        page_cache.purge_pages()
        return response

    page_cache.PageCacheMiddleware(render_while_a_change_commits)(rf.get("/ar/"))
    served = page_cache.PageCacheMiddleware(lambda request: HttpResponse("page"))
    assert served(rf.get("/ar/"))["X-Page-Cache"] == "miss"
    assert served(rf.get("/ar/"))["X-Page-Cache"] == "hit"


def test_pages_expire_when_a_scheduled_story_goes_live():
    """The cache keeps pages no longer than the time to the next publication."""
    ArticleFactory(published_at=timezone.now() + timedelta(seconds=90))
    assert 0 < page_cache.page_timeout() <= 90


def test_pages_expire_when_an_embargo_lifts():
    """…or to the next embargo lift."""
    ArticleFactory(embargo_until=timezone.now() + timedelta(seconds=45))
    assert 0 < page_cache.page_timeout() <= 45


def test_an_unchanged_page_answers_304(client):
    """A reader's browser revalidating with the ETag gets 304 Not Modified."""
    ArticleFactory()
    etag = client.get("/ar/")["ETag"]
    assert client.get("/ar/", HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_previews_are_never_cached(client):
    """A share-link page is not stored."""
    response = client.get("/ar/preview/not-a-real-token/")
    assert "X-Page-Cache" not in response


def test_page_cache_off_renders_every_time(client, settings):
    """PAGE_CACHE=0 turns the cache off."""
    settings.PAGE_CACHE = False
    assert "X-Page-Cache" not in client.get("/ar/")


def test_searches_are_not_cached(client):
    """Each reader's query is different: search pages stay out of the cache."""
    assert "X-Page-Cache" not in client.get("/ar/search/", {"q": "غزة"})


def test_an_article_unchanged_since_answers_304(client):
    """The article page has Last-Modified; If-Modified-Since then gets 304."""
    article = ArticleFactory()
    with translation.override("ar"):
        url = article.get_absolute_url()
    modified = client.get(url)["Last-Modified"]
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304


def test_a_cached_page_keeps_its_security_headers(client):
    """A page answered from the cache carries the same CSP and frame options."""
    url = ArticleFactory().get_absolute_url()
    first = client.get(url)
    second = client.get(url)
    assert second["X-Page-Cache"] == "hit"
    for header in ("Content-Security-Policy", "X-Frame-Options", "Content-Language"):
        assert second[header] == first[header]


def test_a_reader_with_a_session_is_not_served_from_the_cache(client):
    """A session cookie (an editor, even logged out of this tab) bypasses the cache."""
    url = ArticleFactory().get_absolute_url()
    client.get(url)
    client.cookies["sessionid"] = "anything"
    assert "X-Page-Cache" not in client.get(url)
