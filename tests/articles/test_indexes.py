"""Every listing query can be read off an index in its own order (PostgreSQL plans).

With a handful of rows the planner prefers a sequential scan, so these tests turn
sequential scans off: what remains shows which index the query matches and that no
sort is needed. docs/performance.md has the plans at 100,000 stories.
"""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from articles.admin.stories import ArticleAdmin
from articles.models import Article
from core.pagination import EstimatedCountPaginator, cursor_for, older_than
from tests.factories import ArticleFactory, SectionFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="reads PostgreSQL's query plans"
    ),
]


@pytest.fixture(autouse=True)
def no_sequential_scans():
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")


def plan(queryset) -> str:
    return queryset.explain()


def listing(language: str = "ar"):
    return Article.objects.published().available_in(language).for_listing()


def test_home_page_reads_the_breaking_first_index_without_sorting():
    """The home page's breaking-first order comes from article_home."""
    ArticleFactory.create_batch(3)
    text = plan(listing().breaking_first()[:21])
    assert "article_home" in text and "Sort" not in text


def test_english_home_page_uses_the_same_index():
    """Language availability filters rows read off the same index."""
    ArticleFactory.create_batch(3, headline_en="In English")
    text = plan(listing("en").breaking_first()[:21])
    assert "article_home" in text and "Sort" not in text


def test_a_deep_home_page_starts_the_index_scan_at_its_cursor():
    """An "older stories" page seeks to the cursor instead of skipping rows."""
    keys = ("-is_breaking", "-published_at", "-pk")
    cursor = cursor_for(ArticleFactory(), keys)
    text = plan(older_than(listing(), keys, cursor)[:21])
    assert "article_home" in text and "Sort" not in text
    # The scan starts at the cursor's row, not at the newest entry.
    scan = text.split("Index Scan using article_home", 1)[1].splitlines()[1]
    assert "Index Cond" in scan and "ROW(is_breaking, published_at, id) < ROW(" in scan


def test_section_page_reads_the_section_index_without_sorting():
    """A section's latest stories come from article_section_latest."""
    section = SectionFactory()
    ArticleFactory.create_batch(3, section=section)
    text = plan(listing().latest_first().filter(section=section)[:21])
    assert "article_section_latest" in text and "Sort" not in text


def test_latest_stories_read_the_latest_index():
    """Feeds and sitemaps (latest first, every section) use article_latest."""
    ArticleFactory.create_batch(3)
    text = plan(Article.objects.published().latest_first()[:50])
    assert "article_latest" in text and "Sort" not in text


def test_admin_changelist_order_reads_the_desk_index():
    """The changelist's newest-first order, drafts included, needs no sort."""
    ArticleFactory.create_batch(3)
    text = plan(Article.objects.order_by("-published_at", "-pk")[:100])
    assert "article_desk_order" in text and "Sort" not in text


def test_admin_search_uses_the_trigram_index():
    """The admin's folded-text search is answered from the trigram index."""
    ArticleFactory(headline_ar="مكتبة المدينة")
    with connection.cursor() as cursor:  # a plain scan of a tiny table wins else
        cursor.execute("SET LOCAL enable_indexscan = off")
    text = plan(Article.objects.filter(search_text__contains="مكتبه"))
    assert "article_search_text_trgm" in text


def test_admin_numbers_a_long_list_from_the_planner_estimate(monkeypatch):
    """Past the threshold the changelist's total is estimated, never counted."""
    ArticleFactory.create_batch(3)
    monkeypatch.setattr(EstimatedCountPaginator, "ESTIMATE_ABOVE", 0)
    paginator = EstimatedCountPaginator(Article.objects.all(), 100)
    with CaptureQueriesContext(connection) as queries:
        assert paginator.count > 0
    assert not any("COUNT(" in query["sql"] for query in queries)


def test_admin_counts_a_short_list_exactly():
    """Below the threshold the total is an exact count."""
    ArticleFactory.create_batch(3)
    assert EstimatedCountPaginator(Article.objects.all(), 100).count == 3


def test_article_admin_never_counts_the_whole_archive():
    """The changelist shows no "(N total)", which would count every story."""
    assert ArticleAdmin.show_full_result_count is False
    assert ArticleAdmin.paginator is EstimatedCountPaginator


def test_stories_dated_in_the_future_stay_off_the_home_index_scan():
    """A scheduled story is filtered out even though the index holds it."""
    ArticleFactory(published_at=timezone.now() + timedelta(hours=2))
    shown = ArticleFactory()
    assert list(listing().breaking_first()) == [shown]


def test_tag_page_can_walk_the_latest_index():
    """A tag's list is a semi-join, so the latest-first index serves its order."""
    from taggit.models import Tag

    story = ArticleFactory()
    story.tags.add("موانئ")
    tag = Tag.objects.get(name="موانئ")
    text = plan(listing().latest_first().tagged(tag)[:21])
    assert "article_latest" in text and "Sort" not in text


def test_a_newest_first_order_by_expression_is_not_read_off_the_index():
    """latest_first(by_index=False), as search slices use it, leaves the rows to
    the other conditions and sorts them: no walk of the newest-first index."""
    ArticleFactory.create_batch(3)
    since = timezone.now() - timedelta(days=7)
    recent = listing().filter(published_at__gte=since)
    assert "Sort" not in plan(recent.latest_first()[:10])
    text = plan(recent.latest_first(by_index=False)[:10])
    assert "Sort" in text
