"""Every public page says by surrogate keys what it shows (edge.keys), and every
change purges exactly the keys of what it touched (edge.purges)."""

import pytest
from django.urls import reverse

from edge.keys import EVERYTHING, FEEDS, HOME, LISTS, SEARCH, SITEMAPS, key_of
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
    return set(response["Surrogate-Key"].split())


def test_a_story_page_carries_its_own_key(client):
    story = ArticleFactory()
    page = client.get(story.get_absolute_url())
    assert keys(page) == {EVERYTHING, key_of(story)}


def test_the_home_page_carries_the_keys_of_the_stories_it_lists(client):
    stories = ArticleFactory.create_batch(3)
    page = client.get(reverse("articles:home"))
    assert keys(page) == {EVERYTHING, LISTS, HOME, *map(key_of, stories)}


def test_a_section_page_carries_its_section_and_its_stories(client):
    section = SectionFactory()
    story = ArticleFactory(section=section)
    ArticleFactory()  # in another section
    page = client.get(reverse("articles:section", kwargs={"slug": section.slug}))
    assert keys(page) == {EVERYTHING, LISTS, key_of(section), key_of(story)}


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


def test_a_page_that_may_not_be_kept_says_no_keys(client, admin_client):
    """A reader's page kept by nobody (an editor's, with a session) is marked
    private: its keys are not written."""
    story = ArticleFactory()
    page = admin_client.get(story.get_absolute_url())
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
