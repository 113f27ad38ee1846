"""Public search: Arabic folding, ranking, snippets, filters and what stays hidden."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from articles.models import Article, Status
from core import events
from publishing.search import search_articles, snippet
from publishing.views import PAGE_SIZE
from tests.factories import ArticleFactory, DraftArticleFactory, SectionFactory

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the stored vector is PostgreSQL's"
)


def found(query: str, language: str = "ar", **filters) -> list[Article]:
    return list(search_articles(query, language=language, **filters))


def test_query_without_hamza_finds_the_hamza_spelling():
    """ "الاسرى" finds a story about "الأسرى"."""
    story = ArticleFactory(headline_ar="الإفراج عن الأسرى في الصباح")
    assert found("الاسرى") == [story]


@pytest.mark.parametrize(
    "written, typed",
    [("مسؤول", "مسئول"), ("مسئول", "مسؤول"), ("الشؤون", "الشئون"), ("رءوف", "رؤوف")],
)
def test_the_hamza_seat_does_not_matter(written, typed):
    """Desks seat the hamza differently: each spelling finds the other."""
    story = ArticleFactory(headline_ar=f"تصريح {written} في الوزارة")
    assert found(typed) == [story]


def test_snippet_marks_a_word_spelled_with_another_hamza_seat():
    marked = snippet("قال المسؤول إن الوفد وصل", "مسئول", is_html=False)
    assert "<mark>" in marked and "مسؤول</mark>" in marked


def test_query_with_tashkeel_finds_the_bare_spelling():
    """Diacritics and tatweel typed in the query are ignored."""
    story = ArticleFactory(headline_ar="وصول قافلة المساعدات")
    assert found("قَافِلَـــة") == [story]


def test_query_with_a_preposition_finds_the_bare_word():
    """ "لغزة" finds a story that writes "غزة"."""
    story = ArticleFactory(headline_ar="قافلة تصل غزة")
    assert found("لغزة") == [story]


def test_bare_query_finds_the_word_with_a_preposition():
    """ "غزة" finds a story that writes "لغزة"."""
    story = ArticleFactory(headline_ar="قافلة متجهة لغزة")
    assert found("غزة") == [story]


def test_query_with_the_article_finds_the_bare_word():
    """ "الصحف" finds a story that writes "صحف"."""
    story = ArticleFactory(summary_ar="نقلت صحف عربية الخبر")
    assert found("الصحف") == [story]


def test_every_word_of_the_query_must_match():
    """A story holding only one of two words is not found."""
    ArticleFactory(headline_ar="قافلة تصل غزة")
    assert found("قافلة بيروت") == []


@postgres_only
def test_plural_finds_the_singular_by_its_stem():
    """On PostgreSQL, "المكتبات" finds a story about "مكتبة" (arabic stemming)."""
    story = ArticleFactory(body_ar="<p>افتتاح مكتبة جديدة في الحي.</p>")
    assert found("المكتبات") == [story]


@postgres_only
def test_a_story_changed_by_a_service_is_indexed_again():
    """A story event rebuilds the stored vector of the story it names."""
    story = ArticleFactory(headline_ar="اجتماع طارئ للمجلس")
    Article.objects.filter(pk=story.pk).update(search_vector=None)
    assert found("طارئ") == []
    events.story_changed.send(sender=Article, instance=story, action="changed")
    assert found("طارئ") == [story]


def test_headline_match_ranks_above_body_match():
    """A story naming the word in its headline comes before a newer one naming it in
    the body."""
    now = timezone.now()
    in_body = ArticleFactory(
        body_ar="<p>تحدث الوزير عن الموازنة.</p>", published_at=now - timedelta(hours=1)
    )
    in_headline = ArticleFactory(
        headline_ar="الموازنة أمام البرلمان", published_at=now - timedelta(days=2)
    )
    assert found("الموازنة") == [in_headline, in_body]


def test_summary_match_ranks_above_body_match():
    """A story naming the word in its summary comes before one naming it in the body."""
    now = timezone.now()
    in_body = ArticleFactory(
        body_ar="<p>تحدث الوزير عن الموازنة.</p>", published_at=now - timedelta(hours=1)
    )
    in_summary = ArticleFactory(
        summary_ar="نقاش حول الموازنة", published_at=now - timedelta(days=2)
    )
    assert found("الموازنة") == [in_summary, in_body]


def test_snippet_marks_the_matches():
    """An excerpt with the matching words in <mark>."""
    html = snippet("وصلت القافلة إلى غزة صباحا", "غزة")
    assert html == "وصلت القافلة إلى <mark>غزة</mark> صباحا"


def test_snippet_marks_the_word_inside_its_clitics():
    """Searching "غزة" marks the "غزة" of "لغزة"."""
    assert snippet("قافلة لغزة", "غزة") == "قافلة ل<mark>غزة</mark>"


def test_snippet_escapes_markup():
    """Text that looks like markup is escaped, never rendered."""
    html = snippet("<p>نص &lt;script&gt;alert(1)&lt;/script&gt; عن غزة</p>", "غزة")
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "<mark>غزة</mark>" in html


def test_results_page_shows_the_escaped_snippet(client):
    """The search page shows the marked excerpt, and escapes a summary's markup."""
    ArticleFactory(summary_ar="<script>alert(1)</script> قافلة إلى غزة")
    content = client.get("/ar/search/", {"q": "غزة"}).content.decode()
    assert "<mark>غزة</mark>" in content
    assert "<script>alert(1)" not in content
    assert "&lt;script&gt;alert(1)" in content


def test_section_filter_keeps_only_that_section(client):
    """?section=slug lists only that section's stories."""
    economy = SectionFactory(slug="economy")
    wanted = ArticleFactory(headline_ar="أسعار القمح", section=economy)
    ArticleFactory(headline_ar="أسعار القمح اليوم")
    response = client.get("/ar/search/", {"q": "القمح", "section": "economy"})
    assert list(response.context["articles"]) == [wanted]


def test_date_filter_keeps_only_that_range(client):
    """?from= and ?to= keep the stories published on those days."""
    ArticleFactory(
        headline_ar="أسعار القمح", published_at=datetime(2025, 1, 5, 12, tzinfo=UTC)
    )
    wanted = ArticleFactory(
        headline_ar="أسعار القمح", published_at=datetime(2025, 3, 5, 12, tzinfo=UTC)
    )
    ArticleFactory(
        headline_ar="أسعار القمح", published_at=datetime(2025, 5, 5, 12, tzinfo=UTC)
    )
    response = client.get(
        "/ar/search/", {"q": "القمح", "from": "2025-03-01", "to": "2025-03-31"}
    )
    assert list(response.context["articles"]) == [wanted]


def test_impossible_dates_are_ignored(client):
    """A malformed or impossible date does not filter, and does not fail."""
    story = ArticleFactory(headline_ar="أسعار القمح")
    response = client.get(
        "/ar/search/", {"q": "القمح", "from": "2025-02-30", "to": "tomorrow"}
    )
    assert list(response.context["articles"]) == [story]


def test_results_are_paginated_keeping_the_query(client):
    """Results come PAGE_SIZE to a page; the next link keeps q and the filters."""
    ArticleFactory.create_batch(PAGE_SIZE + 1, headline_ar="أسعار القمح")
    first = client.get("/ar/search/", {"q": "القمح", "to": "2100-01-01"})
    assert len(first.context["articles"]) == PAGE_SIZE
    assert 'href="?q=%D8%A7%D9%84%D9%82%D9%85%D8%AD&amp;to=2100-01-01&amp;page=2"' in (
        first.content.decode()
    )
    second = client.get("/ar/search/", {"q": "القمح", "page": 2})
    assert len(second.context["articles"]) == 1


@pytest.mark.parametrize(
    "hidden",
    [
        {"status": Status.DRAFT, "published_at": None},
        {"published_at": timezone.now() + timedelta(days=1)},
        {"embargo_until": timezone.now() + timedelta(days=1)},
        {"status": Status.KILLED},
    ],
    ids=["draft", "scheduled", "embargoed", "killed"],
)
def test_stories_not_public_are_never_found(client, hidden):
    """Drafts, scheduled, embargoed and killed stories are not in the results."""
    ArticleFactory(headline_ar="سر القمح", **hidden)
    assert found("القمح") == []
    response = client.get("/ar/search/", {"q": "القمح"})
    assert "سر القمح" not in response.content.decode()


def test_drafts_are_not_found_even_with_a_matching_headline():
    """A draft beside a published story: only the published one is found."""
    story = ArticleFactory(headline_ar="أسعار القمح")
    DraftArticleFactory(headline_ar="أسعار القمح")
    assert found("القمح") == [story]


def test_english_edition_lists_only_stories_with_an_english_headline():
    """/en/search/ finds stories available in English only."""
    english = ArticleFactory(headline_ar="أسعار القمح", headline_en="Wheat prices")
    ArticleFactory(headline_ar="أسعار القمح")
    assert found("wheat", language="en") == [english]
    assert found("القمح", language="en") == [english]


@pytest.mark.parametrize(
    "query",
    ["", "   ", "غزة" * 1000, "a" * 3000, "&|!():*'\"<>\\"],
    ids=["empty", "spaces", "long-arabic", "long-word", "syntax"],
)
def test_odd_queries_answer_with_a_page(client, query):
    """Empty, very long and tsquery-syntax queries give 200."""
    ArticleFactory(headline_ar="قافلة تصل غزة")
    assert client.get("/ar/search/", {"q": query}).status_code == 200


@pytest.mark.parametrize("query", ["غزة\x00", "\x00"], ids=["nul", "only-nul"])
def test_a_query_holding_a_nul_is_no_page_of_ours(client, query):
    """Refused like a NUL anywhere in an address (core.middleware), not a 500."""
    assert client.get("/ar/search/", {"q": query}).status_code == 404


def test_query_count_does_not_grow_with_the_results(client, monkeypatch):
    """A page of many results costs the same queries as a page of one."""
    # One search of the whole archive: how far back the slices reach depends on
    # the matches, which is not what this measures.
    monkeypatch.setattr("publishing.search.MAX_SLICE_DAYS", 0)
    first = ArticleFactory(headline_ar="أسعار القمح")
    client.get("/ar/search/", {"q": "القمح"})  # the menu and banner, cached once
    with CaptureQueriesContext(connection) as one:
        client.get("/ar/search/", {"q": "القمح"})
    # In the same section: a new section would empty the cached menu.
    ArticleFactory.create_batch(5, headline_ar="أسعار القمح", section=first.section)
    with CaptureQueriesContext(connection) as six:
        response = client.get("/ar/search/", {"q": "القمح"})
    assert len(response.context["articles"]) == 6
    assert len(six) == len(one)


def test_only_the_newest_matches_are_ranked(monkeypatch):
    """Beyond the window, the oldest matches give way, however well they match."""
    monkeypatch.setattr("publishing.search.SEARCH_WINDOW", 2)
    now = timezone.now()
    ArticleFactory(headline_ar="القمح القمح", published_at=now - timedelta(days=3))
    older = ArticleFactory(summary_ar="القمح", published_at=now - timedelta(days=2))
    newest = ArticleFactory(summary_ar="القمح", published_at=now - timedelta(days=1))
    assert found("القمح") == [newest, older]  # the best match, oldest, left out


def test_dates_reach_the_matches_beyond_the_window(monkeypatch):
    """A date range searches the older stories the window left out."""
    monkeypatch.setattr("publishing.search.SEARCH_WINDOW", 1)
    now = timezone.now()
    old = ArticleFactory(headline_ar="القمح", published_at=now - timedelta(days=30))
    ArticleFactory(headline_ar="القمح", published_at=now - timedelta(days=1))
    day = timezone.localdate(now - timedelta(days=30))
    assert found("القمح", date_from=day, date_to=day) == [old]


def test_the_window_reaches_back_across_slices_of_the_archive(monkeypatch):
    """The newest matches are found whether they sit in the last week or years
    back: the window holds the newest, and only them."""
    monkeypatch.setattr("publishing.search.SEARCH_WINDOW", 3)
    now = timezone.now()
    ages = (2, 20, 200, 2000)
    stories = [
        ArticleFactory(headline_ar="القمح", published_at=now - timedelta(days=age))
        for age in ages
    ]
    assert found("القمح") == stories[:3]


def test_the_matches_of_one_slice_size_the_next(monkeypatch, django_assert_num_queries):
    """Matches every other day: the last week's three tell how far back ten are,
    so the window is found in two queries, not in a walk through the years."""
    monkeypatch.setattr("publishing.search.SEARCH_WINDOW", 10)
    now = timezone.now()
    stories = [
        ArticleFactory(headline_ar="القمح", published_at=now - timedelta(days=age))
        for age in range(1, 40, 2)
    ]
    with django_assert_num_queries(2):
        results = search_articles("القمح", language="ar")
    assert results.ranked == [story.pk for story in stories[:10]]


def test_a_rare_word_is_found_older_than_every_slice():
    """A word used once, years ago, is still found."""
    story = ArticleFactory(
        headline_ar="مهرجان التمور", published_at=timezone.now() - timedelta(days=3000)
    )
    assert found("التمور") == [story]


def test_a_window_filled_by_the_last_week_reads_no_further(
    monkeypatch, django_assert_num_queries
):
    """A common word's window is found in one query of the newest stories."""
    monkeypatch.setattr("publishing.search.SEARCH_WINDOW", 2)
    now = timezone.now()
    ArticleFactory(headline_ar="القمح", published_at=now - timedelta(days=300))
    ArticleFactory.create_batch(2, summary_ar="القمح", published_at=now)
    with django_assert_num_queries(1):
        results = search_articles("القمح", language="ar")
    assert len(results) == 2


def test_an_end_date_in_the_past_finds_the_newest_matches_before_it(monkeypatch):
    """The slices are counted back from the reader's end date, not from today."""
    monkeypatch.setattr("publishing.search.SEARCH_WINDOW", 1)
    now = timezone.now()
    ArticleFactory(headline_ar="القمح", published_at=now - timedelta(days=1001))
    wanted = ArticleFactory(
        headline_ar="القمح", published_at=now - timedelta(days=1000)
    )
    ArticleFactory(headline_ar="القمح", published_at=now)
    assert found("القمح", date_to=timezone.localdate(wanted.published_at)) == [wanted]


def test_a_full_window_says_older_stories_are_reached_by_dates(client, monkeypatch):
    """The page does not claim a total it did not count."""
    monkeypatch.setattr("publishing.search.SEARCH_WINDOW", 2)
    ArticleFactory.create_batch(3, headline_ar="أسعار القمح", headline_en="Wheat")
    response = client.get("/en/search/", {"q": "wheat"})
    html = response.content.decode()
    assert "The newest <bdi>2</bdi> matching stories" in html
    assert "stories found" not in html


def test_the_arabic_edition_says_so_in_arabic(client, monkeypatch):
    """The full-window message is translated."""
    monkeypatch.setattr("publishing.search.SEARCH_WINDOW", 2)
    ArticleFactory.create_batch(3, headline_ar="أسعار القمح")
    html = client.get("/ar/search/", {"q": "القمح"}).content.decode()
    assert "أحدث <bdi>2</bdi> خبر مطابق" in html


def test_header_has_the_search_form(client):
    """Every page's header has a labelled GET search form whose input is dir="auto"."""
    content = client.get("/ar/").content.decode()
    assert 'role="search" action="/ar/search/" method="get"' in content
    assert '<label class="visually-hidden" for="site-search-q">' in content
    assert 'id="site-search-q" type="search" name="q" value="" dir="auto"' in content


def test_english_search_page_answers(client):
    """/en/search/ is the English edition's search page."""
    ArticleFactory(headline_ar="أسعار القمح", headline_en="Wheat prices")
    response = client.get("/en/search/", {"q": "Wheat"})
    assert response.status_code == 200
    assert '<html lang="en" dir="ltr">' in response.content.decode()
    assert len(response.context["articles"]) == 1
