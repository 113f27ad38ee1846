"""Every public page says by surrogate keys what it shows (edge.keys), and every
change purges exactly the keys of what it touched (edge.purges)."""

import pytest
from django.urls import reverse

from edge.keys import (
    BANNER,
    EVERYTHING,
    FEEDS,
    HOME,
    LISTS,
    SEARCH,
    SITEMAPS,
    key_of,
    page_keys,
)
from edge.purges import keys_for, stories_showing
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    PersonFactory,
    SectionFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cached_pages(settings):
    # The page cache says who may keep a page (s-maxage): the edge reads its keys.
    settings.PAGE_CACHE = True


def keys(response) -> set[str]:
    assert response.status_code == 200
    return page_keys(response.wsgi_request, response)


def test_a_story_page_carries_its_own_key(client):
    story = ArticleFactory()
    page = client.get(story.get_absolute_url())
    assert keys(page) == {EVERYTHING, BANNER, key_of(story)}


def test_a_story_page_carries_what_chooses_its_related_stories(client):
    """A story published with one of its tags or people may join them."""
    story, related = ArticleFactory.create_batch(2)
    story.tags.add("حرائق")
    related.tags.add("حرائق")
    named = ArticlePersonFactory(article=story)
    tag = story.tags.get()
    assert keys(client.get(story.get_absolute_url())) == {
        EVERYTHING,
        BANNER,
        key_of(story),
        key_of(tag),
        key_of(named.person),
        key_of(related),
    }


def test_every_page_carries_the_story_on_the_breaking_banner(client):
    breaking = ArticleFactory(is_breaking=True)
    story = ArticleFactory()
    assert key_of(breaking) in keys(client.get(story.get_absolute_url()))
    assert key_of(breaking) in keys(client.get(reverse("articles:home")))


def test_the_home_page_carries_the_keys_of_the_stories_it_lists(client):
    stories = ArticleFactory.create_batch(3)
    page = client.get(reverse("articles:home"))
    assert keys(page) == {EVERYTHING, BANNER, LISTS, HOME, *map(key_of, stories)}


def test_a_section_page_carries_its_section_and_its_stories(client):
    section = SectionFactory()
    story = ArticleFactory(section=section)
    ArticleFactory()  # in another section
    page = client.get(reverse("articles:section", kwargs={"slug": section.slug}))
    assert keys(page) == {EVERYTHING, BANNER, LISTS, key_of(section), key_of(story)}


def test_a_person_page_carries_the_person(client):
    named = ArticlePersonFactory()
    person = named.person
    page = client.get(person.get_absolute_url())
    assert key_of(person) in keys(page)
    assert key_of(named.article) in keys(page)


def test_feeds_and_sitemaps_carry_their_family(client):
    ArticleFactory()
    assert FEEDS in keys(client.get(reverse("articles:feed")))
    assert SITEMAPS in keys(client.get("/sitemap.xml"))
    assert SITEMAPS in keys(client.get("/news-sitemap.xml"))


def test_a_page_that_may_not_be_kept_says_no_keys(admin_client, settings):
    """A reader's page kept by nobody (an editor's, with a session) is marked
    private: its keys are not written."""
    settings.EDGE_PURGE_URLS = ["http://127.0.0.1:9"]
    story = ArticleFactory()
    page = admin_client.get(story.get_absolute_url())
    assert "xkey" not in page


def test_with_an_edge_the_page_says_its_keys_in_the_header_it_reads(client, settings):
    settings.EDGE_PURGE_URLS = ["http://127.0.0.1:9"]
    story = ArticleFactory()
    page = client.get(story.get_absolute_url())
    assert set(page["xkey"].split()) == keys(page)


def test_without_an_edge_readers_are_not_told_the_keys(client):
    """They name the rows a page shows, a person's among them: only an edge, which
    drops them before the reader, reads them."""
    story = ArticleFactory()
    page = client.get(story.get_absolute_url())
    assert key_of(story) in keys(page)
    assert "Surrogate-Key" not in page


def test_a_story_change_purges_its_page_and_every_list_it_may_join():
    section = SectionFactory()
    story = ArticleFactory(section=section)
    named = ArticlePersonFactory(article=story)
    credit = AttributionFactory(article=story)
    assert keys_for(story) == {
        key_of(story),
        key_of(section),
        key_of(named.person),
        key_of(credit.source),
        HOME,
        FEEDS,
        SITEMAPS,
        SEARCH,
    }


def test_a_person_renamed_purges_every_page_naming_them():
    person = PersonFactory()
    naming = [ArticlePersonFactory(person=person).article for _ in range(2)]
    ArticleFactory()  # names nobody
    assert stories_showing(person) == sorted(story.pk for story in naming)
    assert keys_for(person) == {key_of(person), FEEDS, *map(key_of, naming)}


def test_a_section_renamed_purges_everything_softly():
    """The menu on every page shows it."""
    assert keys_for(SectionFactory()) == {EVERYTHING}
