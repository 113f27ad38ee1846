"""A protected person's legal name never reaches a public page."""

from urllib.parse import unquote

import pytest
from django.utils import translation

from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    ProtectedPersonFactory,
)

pytestmark = pytest.mark.django_db

LEGAL_NAME = "يوسف المنصوري"


@pytest.fixture
def story():
    """A published, tagged, attributed story naming a protected person."""
    person = ProtectedPersonFactory()
    article = ArticleFactory(
        headline_ar="شهادة عن السجون", headline_en="Prison testimony"
    )
    article.tags.add("سجون")
    ArticlePersonFactory(article=article, person=person, name_used="")
    AttributionFactory(article=article)
    return article, person


def pages(article, person, language):
    with translation.override(language):
        return [
            article.get_absolute_url(),
            person.get_absolute_url(),
            f"/{language}/",
            f"/{language}/tag/سجون/",
            article.section.get_absolute_url(),
            article.attributions.get().source.get_absolute_url(),
        ]


@pytest.mark.parametrize("language", ["ar", "en"])
def test_legal_name_is_absent_from_every_public_page(client, story, language):
    """Article, person, home, tag, section and source pages omit the legal name."""
    article, person = story
    for url in pages(article, person, language):
        response = client.get(url)
        assert response.status_code == 200, url
        assert LEGAL_NAME not in response.content.decode(), url


def test_article_page_shows_the_pseudonym(client, story):
    """The article names the protected person by the pseudonym."""
    article, _person = story
    with translation.override("ar"):
        html = client.get(article.get_absolute_url()).content.decode()
    assert "الشاهد" in html


def test_person_page_shows_only_the_pseudonym(client, story):
    """The person page is titled with the pseudonym."""
    _article, person = story
    with translation.override("ar"):
        html = client.get(person.get_absolute_url()).content.decode()
    assert '<h1 class="page-title">الشاهد</h1>' in html
    assert LEGAL_NAME not in html


def test_person_url_slug_is_the_pseudonym(story):
    """The person's public address is made from the pseudonym."""
    _article, person = story
    with translation.override("ar"):
        url = person.get_absolute_url()
    assert person.slug == "الشاهد"
    assert unquote(url) == f"/ar/people/{person.pk}/الشاهد/"


def test_protected_person_named_only_in_drafts_has_no_page(client):
    """A protected person gets no public page before a published story names them."""
    person = ProtectedPersonFactory()
    with translation.override("ar"):
        response = client.get(person.get_absolute_url())
    assert response.status_code == 404
    assert LEGAL_NAME not in response.content.decode()


def test_description_naming_the_legal_name_is_withheld(client):
    """A description saved around validation that names the person is not shown."""
    person = ProtectedPersonFactory(description_ar=f"الاسم الحقيقي {LEGAL_NAME}")
    with translation.override("ar"):
        html = client.get(person.get_absolute_url()).content.decode()
    assert LEGAL_NAME not in html
