"""The article page's cached fragments: served while the story stays public and
unchanged, dropped at once by any change of the story or of what it shows."""

import time

import pytest
from django.core.cache import cache
from django.utils import translation

from articles.models import Article, Section
from articles.services import (
    StoryEdit,
    article_kill,
    article_save,
    article_unpublish,
    correction_add,
    section_save,
)
from identity.models import Person
from identity.services import person_save
from publishing.fragments import RELATED_SECONDS, fragment_generation
from publishing.views.story import ArticleDetailView
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    PersonFactory,
    SectionFactory,
    SuperuserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def chief():
    return SuperuserFactory(username="chief")


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a service with its after-commit side effects (purges) executed."""

    def run(service, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return run


def url_of(article: Article) -> str:
    with translation.override("ar"):
        return Article.objects.get(pk=article.pk).get_absolute_url()


def test_a_warm_page_shows_the_same_story(client):
    """The page built from cached fragments is the page rendered from the rows."""
    article = ArticleFactory(headline_ar="عنوان محفوظ", body_ar="<p>نص الخبر</p>")
    first = client.get(url_of(article)).content.decode()
    second = client.get(url_of(article)).content.decode()
    assert first == second
    assert "عنوان محفوظ" in second and "نص الخبر" in second


def test_an_edited_story_shows_its_new_text_at_once(client, chief, commit):
    """A save gives the story a new version, so its fragments are rendered again."""
    article = ArticleFactory(body_ar="<p>النص الأول</p>")
    client.get(url_of(article))
    article = Article.objects.get(pk=article.pk)
    article.body_ar = "<p>النص المعدل</p>"
    commit(article_save, edit=StoryEdit(article=article), by=chief)
    html = client.get(url_of(article)).content.decode()
    assert "النص المعدل" in html and "النص الأول" not in html


def test_a_withdrawn_story_disappears_at_once(client, chief, commit):
    """Its fragments are still cached, but the view finds it no longer public."""
    article = ArticleFactory()
    url = url_of(article)
    assert client.get(url).status_code == 200
    commit(article_unpublish, article=article, by=chief)
    assert client.get(url).status_code == 404


def test_a_killed_story_is_gone_with_nothing_shown(client, chief, commit):
    """A killed story answers 410 and shows nothing of its cached page."""
    article = ArticleFactory(headline_ar="خبر سيسحب نهائيا")
    url = url_of(article)
    client.get(url)
    commit(article_kill, article=article, by=chief, reason="قرار قانوني")
    response = client.get(url)
    assert response.status_code == 410
    assert "خبر سيسحب نهائيا" not in response.content.decode()


def test_protecting_a_person_drops_the_cached_fragments(client, chief, commit):
    """person_save announces the change: the fragments of every story start over,
    and the story that named the person leaves the site with it."""
    link = ArticlePersonFactory(person=PersonFactory(name="سالم الحربي"))
    url = url_of(link.article)
    assert "سالم الحربي" in client.get(url).content.decode()
    before = fragment_generation()
    person = Person.objects.get(pk=link.person_id)
    person.identity_protected, person.public_name = True, "المصدر"
    commit(person_save, person=person, by=chief, withdraw=True)
    assert fragment_generation() == before + 1
    response = client.get(url)
    assert response.status_code == 404
    assert "سالم الحربي" not in response.content.decode()


def test_a_person_renamed_after_caching_shows_by_the_new_name(client, chief, commit):
    """The people the story names are in its fragment; a change to one drops it."""
    link = ArticlePersonFactory(person=PersonFactory(name="سالم الحربي"))
    url = url_of(link.article)
    client.get(url)
    person = Person.objects.get(pk=link.person_id)
    person.public_name = "أبو سالم"
    commit(person_save, person=person, by=chief)
    assert "أبو سالم" in client.get(url).content.decode()


def test_a_renamed_section_shows_at_once(client, chief, commit):
    """The section's name is in the story's fragment and in the menu."""
    section = SectionFactory(name_ar="اقتصاد")
    url = url_of(ArticleFactory(section=section))
    client.get(url)
    section = Section.objects.get(pk=section.pk)
    section.name_ar = "مال وأعمال"
    commit(section_save, section=section, by=chief)
    html = client.get(url).content.decode()
    assert "مال وأعمال" in html and "اقتصاد" not in html


def test_a_correction_shows_at_once(client, chief, commit):
    """Adding a correction changes the story's version."""
    article = ArticleFactory()
    client.get(url_of(article))
    commit(
        correction_add,
        article=article,
        by=chief,
        kind="correction",
        text_ar="صحح تاريخ الاجتماع.",
    )
    assert "صحح تاريخ الاجتماع." in client.get(url_of(article)).content.decode()


def test_a_story_edit_leaves_other_stories_fragments_warm(chief, commit):
    """Only changes of rows other than stories start a new fragment generation."""
    article = ArticleFactory()
    before = fragment_generation()
    commit(article_save, edit=StoryEdit(article=article), by=chief)
    assert fragment_generation() == before
    commit(section_save, section=SectionFactory.build(), by=chief)
    assert fragment_generation() == before + 1


def test_a_newly_public_related_story_joins_the_list_at_once(client, chief, commit):
    """Related stories are cached per page generation, which any change moves."""
    article = ArticleFactory()
    article.tags.add("مياه")
    client.get(url_of(article))
    other = ArticleFactory(headline_ar="خبر مرتبط جديد")
    other.tags.add("مياه")
    commit(article_save, edit=StoryEdit(article=other), by=chief)
    assert "خبر مرتبط جديد" in client.get(url_of(article)).content.decode()


def test_a_warm_page_reads_the_cache_in_one_round_trip(client, monkeypatch):
    """The story, its related stories, the menu and the generation counters come
    together: one read of the cache, whatever the page shows."""
    article = ArticleFactory()
    client.get(url_of(article))
    reads = []
    inside = []  # the local-memory cache answers get_many with its own get()
    for name in ("get", "get_many", "get_or_set"):
        original = getattr(cache, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            if not inside:
                reads.append(_name)
            inside.append(_name)
            try:
                return _original(*args, **kwargs)
            finally:
                inside.pop()

        monkeypatch.setattr(cache, name, counted)
    assert client.get(url_of(article)).status_code == 200
    assert reads == ["get_many"]


@pytest.fixture
def renders(monkeypatch):
    """How many times the article page's template is rendered."""
    counted = []
    original = ArticleDetailView.render_to_response

    def counting(view, context, **kwargs):
        counted.append(view.object.pk)
        return original(view, context, **kwargs)

    monkeypatch.setattr(ArticleDetailView, "render_to_response", counting)
    return counted


def test_a_warm_page_is_put_together_once(client, renders):
    """The second reader gets the page put together for the first, unrendered."""
    url = url_of(ArticleFactory())
    first = client.get(url)
    second = client.get(url)
    assert second.content == first.content
    assert len(renders) == 1


def test_any_change_puts_the_page_together_again(client, chief, commit, renders):
    """A change anywhere (here, a section renamed) drops the page put together."""
    article = ArticleFactory()
    client.get(url_of(article))
    commit(section_save, section=Section.objects.get(pk=article.section_id), by=chief)
    client.get(url_of(article))
    assert len(renders) == 2


def test_the_page_put_together_expires_with_the_first_of_its_parts(client):
    """Kept no longer than its related stories (a scheduled story joins them within
    RELATED_SECONDS), or the menu and banner."""
    article = ArticleFactory()
    client.get(url_of(article))
    entry = next(
        value
        for key, value in _stored_entries()
        if key.startswith("fragments:page-keyed:")
    )
    assert entry[1] <= time.time() + RELATED_SECONDS


def _stored_entries():
    # The local-memory cache of the test settings, read key by key.
    for full_key in list(cache._cache):
        key = full_key.split(":", 2)[2]
        yield key, cache.get(key)


def test_a_page_carrying_the_requests_nonce_is_not_kept(client, monkeypatch, renders):
    """A page that printed the CSP nonce only this request's header allows is
    rendered for each request."""
    original = ArticleDetailView.render_to_response

    def with_nonce(view, context, **kwargs):
        str(view.request.csp_nonce)  # as a template printing {{ csp_nonce }}
        return original(view, context, **kwargs)

    monkeypatch.setattr(ArticleDetailView, "render_to_response", with_nonce)
    url = url_of(ArticleFactory())
    client.get(url)
    client.get(url)
    assert len(renders) == 2


def test_an_editor_and_a_reader_get_the_same_page(client, chief):
    """Nothing of who asks is in the article page, so one page put together serves
    every reader and editor (the gate still runs for each)."""
    url = url_of(ArticleFactory())
    reader = client.get(url).content
    client.force_login(chief)
    assert client.get(url).content == reader
    cache.clear()
    assert client.get(url).content == reader
