"""Public pages run a fixed number of queries, however much an article carries."""

import factory
import pytest
from django.utils import translation

from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    CorrectionFactory,
    ImageFactory,
    RenditionFactory,
    SectionFactory,
    SocialPostFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

# The section menu and the breaking-news banner, each read once into a cold cache.
MENU_QUERIES = 2
# Every request reads the article's row (a few columns, by primary key) to check
# that it is public now; on a warm fragment cache (publishing/fragments.py) that is all.
WARM_ARTICLE_PAGE_QUERIES = 1
# On a cold one, the page is rendered from the story: its row with section and hero,
# then one query each for bylines (with users), people (with persons), attributions
# (with sources), social posts, tags and corrections, and the related stories (one
# query, whatever they share).
ARTICLE_PAGE_QUERIES = WARM_ARTICLE_PAGE_QUERIES + 8 + MENU_QUERIES
# Warm story fragments but cold related stories (after another story changed): the
# story's tags and people, and the related stories.
COLD_RELATED_QUERIES = 3
# With posts that have handles: one more, for the sources whose accounts posted them.
POST_SOURCES_QUERY = 1
# The page of articles with their sections, one row more than shown (no count).
LIST_PAGE_QUERIES = 1 + MENU_QUERIES
# The renditions of every image a list (or the hero) shows, read in one query; none
# when no image is shown. Each group of pictures costs one query, not one per image.
RENDITIONS_QUERY = 1


def rich_article(n: int):
    """A published article with `n` of every related thing the page shows."""
    article = ArticleFactory()
    for i in range(n):
        BylineFactory(
            article=article,
            name="" if i % 2 else f"كاتب {i}",
            user=UserFactory() if i % 2 else None,
        )
        ArticlePersonFactory(article=article)
        SocialPostFactory(article=article)
        AttributionFactory(article=article, original_url=f"https://example.org/{i}")
    article.tags.add(*[f"وسم {i}" for i in range(n)])
    with translation.override("ar"):
        return article.get_absolute_url()


@pytest.mark.parametrize("n", [1, 20])
def test_article_page_queries_do_not_grow_with_related_rows(
    client, django_assert_num_queries, n
):
    """The article page costs the same with 1 or 20 of every related row."""
    url = rich_article(n)
    with django_assert_num_queries(ARTICLE_PAGE_QUERIES + POST_SOURCES_QUERY):
        response = client.get(url)
    assert response.status_code == 200


@pytest.mark.parametrize("n", [1, 20])
def test_a_warm_article_page_reads_only_the_story_row(
    client, django_assert_num_queries, n
):
    """With its fragments cached, the page checks that the story is public: one
    query, with 1 or 20 of every related row."""
    url = rich_article(n)
    client.get(url)
    with django_assert_num_queries(WARM_ARTICLE_PAGE_QUERIES):
        response = client.get(url)
    assert response.status_code == 200


def test_a_warm_story_with_cold_related_stories_costs_three_more(
    client, django_assert_num_queries
):
    """After the page cache's generation moves, only the related stories are read
    again (with the story's tags and people they are chosen by)."""
    from publishing.page_cache import purge_pages

    url = rich_article(3)
    client.get(url)
    purge_pages()
    # The breaking banner is looked up again too (the menu is kept apart).
    expected = WARM_ARTICLE_PAGE_QUERIES + COLD_RELATED_QUERIES + 1
    with django_assert_num_queries(expected):
        response = client.get(url)
    assert response.status_code == 200


@pytest.mark.parametrize("n", [1, 5])
def test_article_page_queries_do_not_grow_with_corrections(
    client, django_assert_num_queries, n
):
    """The article page costs the same with 1 or 5 corrections."""
    article = ArticleFactory()
    article.tags.add("تصحيح")  # so the related stories are looked up, as usual
    CorrectionFactory.create_batch(n, article=article, text_en="Corrected.")
    with translation.override("ar"):
        url = article.get_absolute_url()
    with django_assert_num_queries(ARTICLE_PAGE_QUERIES):
        html = client.get(url).content.decode()
    assert html.count('class="correction"') == n


@pytest.mark.parametrize("n", [1, 5])
def test_article_page_queries_do_not_grow_with_illustrated_related_stories(
    client, django_assert_num_queries, n
):
    """A story with a hero image and n illustrated related stories costs the same:
    one query for the hero's renditions, one for all the teasers' renditions."""
    article = ArticleFactory(hero_image=ImageFactory())
    RenditionFactory(image=article.hero_image)
    article.tags.add("صور")
    for related in ArticleFactory.create_batch(n, hero_image=None):
        related.hero_image = RenditionFactory().image
        related.save()
        related.tags.add("صور")
    with translation.override("ar"):
        url = article.get_absolute_url()
    with django_assert_num_queries(ARTICLE_PAGE_QUERIES + 2 * RENDITIONS_QUERY):
        html = client.get(url).content.decode()
    assert html.count("<picture>") == n + 1


@pytest.mark.parametrize("n", [1, 20])
def test_home_queries_do_not_grow_with_articles(client, django_assert_num_queries, n):
    """The home page costs the same with 1 or 20 illustrated articles."""
    ArticleFactory.create_batch(
        n, kicker_ar="تقرير", hero_image=factory.SubFactory(ImageFactory)
    )
    with django_assert_num_queries(LIST_PAGE_QUERIES + RENDITIONS_QUERY):
        html = client.get("/ar/").content.decode()
    assert html.count('class="teaser__image"') == n


@pytest.mark.parametrize("n", [1, 20])
def test_section_queries_do_not_grow_with_articles(
    client, django_assert_num_queries, n
):
    """A section page costs the same with 1 or 20 articles: the section, count, page."""
    section = SectionFactory()
    ArticleFactory.create_batch(n, section=section)
    with django_assert_num_queries(LIST_PAGE_QUERIES + 1):
        client.get(f"/ar/section/{section.slug}/")


@pytest.mark.parametrize("n", [1, 20])
def test_source_queries_do_not_grow_with_articles(client, django_assert_num_queries, n):
    """A source page costs the same with 1 or 20 articles: the source, count, page."""
    source = AttributionFactory().source
    for _ in range(n - 1):
        AttributionFactory(source=source)
    with django_assert_num_queries(LIST_PAGE_QUERIES + 1):
        client.get(f"/ar/sources/{source.slug}/")


@pytest.mark.parametrize("n", [1, 20])
def test_person_queries_do_not_grow_with_articles(client, django_assert_num_queries, n):
    """A person page costs the same with 1 or 20 articles.

    The person, the emptiness check that keeps draft-only people private, the count
    and the page.
    """
    person = ArticlePersonFactory().person
    for _ in range(n - 1):
        ArticlePersonFactory(person=person)
    with translation.override("ar"):
        url = person.get_absolute_url()
    with django_assert_num_queries(LIST_PAGE_QUERIES + 2):
        client.get(url)
