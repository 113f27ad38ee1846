"""The page cache drops only the pages showing what a change touched (their
surrogate keys, edge.keys): a live entry every ten seconds leaves the rest of the
site cached."""

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.urls import reverse

from articles.services import StoryEdit, article_publish, article_save
from core.roles import EDITORS
from edge.keys import key_of, mark
from live.services import live_entry_add, live_start
from publishing import page_cache
from tests.factories import ArticleFactory, DraftArticleFactory, member_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cache_on(settings):
    settings.PAGE_CACHE = True
    settings.PAGE_CACHE_SECONDS = 300


@pytest.fixture
def editor(db):
    return member_of(EDITORS, username="keys-editor")


def served(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response["X-Page-Cache"]


def warm(client, *urls: str) -> None:
    for url in urls:
        client.get(url)
        assert served(client, url) == "hit"


def test_a_story_edit_leaves_the_other_stories_pages_cached(
    client, editor, django_capture_on_commit_callbacks
):
    edited, other = ArticleFactory.create_batch(2)
    warm(client, edited.get_absolute_url(), other.get_absolute_url())
    edited.headline_ar = "عنوان بعد التعديل"
    with django_capture_on_commit_callbacks(execute=True):
        article_save(edit=StoryEdit(article=edited), by=editor)
    assert served(client, other.get_absolute_url()) == "hit"
    assert served(client, edited.get_absolute_url()) == "miss"


def test_a_live_entry_refreshes_its_story_and_the_home_page_only(
    client, editor, django_capture_on_commit_callbacks
):
    live, other = ArticleFactory.create_batch(2)
    with django_capture_on_commit_callbacks(execute=True):
        live_start(article=live, by=editor)
    home = reverse("articles:home")
    warm(client, live.get_absolute_url(), other.get_absolute_url(), home)
    with django_capture_on_commit_callbacks(execute=True):
        live_entry_add(article=live, by=editor, body={"ar": "<p>وصل المسعفون.</p>"})
    assert served(client, other.get_absolute_url()) == "hit"
    assert served(client, live.get_absolute_url()) == "miss"
    assert served(client, home) == "miss"


def test_a_story_published_with_a_tag_refreshes_the_pages_it_may_join(
    client, editor, django_capture_on_commit_callbacks
):
    """Its related stories list the newest sharing a tag or a person."""
    sharing, apart = ArticleFactory.create_batch(2)
    sharing.tags.add("الطقس")
    warm(client, sharing.get_absolute_url(), apart.get_absolute_url())
    draft = DraftArticleFactory()
    draft.tags.add("الطقس")
    with django_capture_on_commit_callbacks(execute=True):
        article_publish(article=draft, by=editor)
    assert served(client, apart.get_absolute_url()) == "hit"
    assert draft.headline_ar in client.get(sharing.get_absolute_url()).content.decode()


def test_a_breaking_story_published_refreshes_every_page_for_its_banner(
    client, editor, django_capture_on_commit_callbacks
):
    story = ArticleFactory()
    warm(client, story.get_absolute_url())
    draft = DraftArticleFactory(is_breaking=True, headline_ar="عاجل: زلزال قوي")
    with django_capture_on_commit_callbacks(execute=True):
        article_publish(article=draft, by=editor)
    assert "عاجل: زلزال قوي" in client.get(story.get_absolute_url()).content.decode()


def test_a_page_its_view_did_not_mark_goes_with_any_change(rf):
    """What it shows is not known: it is kept only until the next change."""
    unmarked = page_cache.PageCacheMiddleware(lambda request: HttpResponse("page"))
    unmarked(rf.get("/ar/unmarked/"))
    page_cache.purge_pages({"article-0"})
    assert unmarked(rf.get("/ar/unmarked/"))["X-Page-Cache"] == "miss"


def test_a_page_rendered_while_what_it_shows_changed_is_not_kept(rf):
    def render_while_the_story_changes(request):
        page_cache.purge_pages({"article-7"})
        return mark(HttpResponse("page"), {"article-7"})

    page_cache.PageCacheMiddleware(render_while_the_story_changes)(rf.get("/ar/x/"))
    served_page = page_cache.PageCacheMiddleware(
        lambda request: mark(HttpResponse("page"), {"article-7"})
    )
    assert served_page(rf.get("/ar/x/"))["X-Page-Cache"] == "miss"
    assert served_page(rf.get("/ar/x/"))["X-Page-Cache"] == "hit"


def test_a_purge_in_another_worker_drops_only_the_pages_with_its_keys(client, settings):
    settings.PAGE_CACHE_LOCAL_SECONDS = 0
    changed, other = ArticleFactory.create_batch(2)
    warm(client, changed.get_absolute_url(), other.get_absolute_url())
    page_cache.purge_shared([key_of(changed)])
    assert served(client, other.get_absolute_url()) == "hit"
    assert served(client, changed.get_absolute_url()) == "miss"


def test_a_purge_in_this_worker_keeps_its_own_copies_of_other_pages(client):
    changed, other = ArticleFactory.create_batch(2)
    warm(client, changed.get_absolute_url(), other.get_absolute_url())
    cache.clear()  # what is left is the worker's own copies
    page_cache.purge_pages([key_of(changed)])
    assert served(client, other.get_absolute_url()) == "hit"
    assert served(client, changed.get_absolute_url()) == "miss"
