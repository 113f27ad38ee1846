"""Arabic-aware search in the admin's lists and autocomplete boxes."""

import pytest
from django.urls import reverse

from core.roles import EDITORS
from tests.factories import (
    ArticleFactory,
    PersonFactory,
    ProtectedPersonFactory,
    SourceFactory,
    member_of,
)

pytestmark = pytest.mark.django_db


def search(client, url_name: str, term: str) -> list:
    response = client.get(reverse(url_name), {"q": term})
    assert response.status_code == 200
    return list(response.context["cl"].result_list)


def autocomplete(client, model_name: str, field_name: str, term: str) -> list[str]:
    response = client.get(
        reverse("admin:autocomplete"),
        {
            "app_label": "articles",
            "model_name": model_name,
            "field_name": field_name,
            "term": term,
        },
    )
    assert response.status_code == 200
    return [result["text"] for result in response.json()["results"]]


def test_search_ignores_hamza(admin_client):
    """ "الاسد" finds an article headlined "الأسد"."""
    article = ArticleFactory(headline_ar="الأسد يغادر")
    ArticleFactory(headline_ar="خبر آخر")
    assert search(admin_client, "admin:articles_article_changelist", "الاسد") == [
        article
    ]


def test_search_ignores_shadda(admin_client):
    """ "مهرب" finds "مهرّب" written with a shadda."""
    article = ArticleFactory(body_ar="<p>القبض على مهرّب في الميناء</p>")
    ArticleFactory()
    assert search(admin_client, "admin:articles_article_changelist", "مهرب") == [
        article
    ]


def test_search_matches_arabic_indic_digits(admin_client):
    """ "١٢" finds an article that writes 12 in Western digits."""
    article = ArticleFactory(headline_ar="مقتل 12 شخصا")
    # Not the factory's numbered headline: the 112th or 1200th story holds "12" too.
    ArticleFactory(headline_ar="خبر بلا أرقام")
    assert search(admin_client, "admin:articles_article_changelist", "١٢") == [article]


def test_search_folds_alef_maqsura_and_ta_marbuta(admin_client):
    """ "مستشفي المدينه" finds "مستشفى المدينة"."""
    article = ArticleFactory(headline_ar="قصف مستشفى المدينة")
    ArticleFactory()
    found = search(admin_client, "admin:articles_article_changelist", "مستشفي المدينه")
    assert found == [article]


def test_person_search_finds_an_alias(admin_client):
    """A person is found by an alias, in any letter case."""
    person = PersonFactory(name="فريد المذهان", aliases="قيصر\nCaesar")
    PersonFactory()
    assert search(admin_client, "admin:identity_person_changelist", "caesar") == [
        person
    ]


def test_person_autocomplete_finds_a_pseudonym(admin_client):
    """The person box of an article's people inline finds a protected pseudonym."""
    ProtectedPersonFactory()
    assert autocomplete(admin_client, "articleperson", "person", "الشاهد") == [
        "الشاهد 🔒"
    ]


def test_section_autocomplete_searches_names(admin_client):
    """The article's section box finds a section by its Arabic name."""
    article = ArticleFactory()
    names = autocomplete(admin_client, "article", "section", article.section.name_ar)
    assert names == [article.section.name_ar]


def test_source_search_finds_an_alias(admin_client):
    """A source is found by an alias written with different hamzas."""
    source = SourceFactory(aliases="أ ف ب\nAFP")
    SourceFactory()
    assert search(admin_client, "admin:sources_source_changelist", "ا ف ب") == [source]


def test_source_search_finds_a_domain(admin_client):
    """A source is found by one of its web domains."""
    source = SourceFactory(domains="aawsat.com")
    SourceFactory()
    assert search(admin_client, "admin:sources_source_changelist", "aawsat") == [source]


def test_an_editor_finds_a_story_whatever_seat_the_hamza_sits_on(client):
    """ "مسئول" (one desk's spelling) finds "مسؤول" (another's) in the story list."""
    client.force_login(member_of(EDITORS))
    article = ArticleFactory(headline_ar="المسؤول يستقيل")
    ArticleFactory(headline_ar="خبر آخر")
    assert search(client, "admin:articles_article_changelist", "مسئول") == [article]
