"""The public source page: the articles that credit an outlet."""

import pytest
from django.utils import translation

from sources.models import Attribution
from tests.factories import (
    ArticleFactory,
    AttributionFactory,
    DraftArticleFactory,
    SourceFactory,
)

pytestmark = pytest.mark.django_db


def source_url(source, language="ar"):
    with translation.override(language):
        return source.get_absolute_url()


def test_source_page_lists_articles_attributed_to_it(client):
    """The source page lists the published stories that credit the source."""
    source = SourceFactory(name_ar="موقع 24")
    AttributionFactory(
        source=source, article=ArticleFactory(headline_ar="خبر من الموقع")
    )
    AttributionFactory(source=source, article=DraftArticleFactory(headline_ar="مسودة"))
    ArticleFactory(headline_ar="خبر آخر")
    html = client.get(source_url(source)).content.decode()
    assert "موقع 24" in html
    assert "خبر من الموقع" in html
    assert "مسودة" not in html
    assert "خبر آخر" not in html


def test_article_crediting_a_source_twice_is_listed_once(client):
    """An article that republishes and cites the same source appears once."""
    source = SourceFactory()
    article = ArticleFactory()
    AttributionFactory(
        source=source, article=article, role=Attribution.Role.REPUBLISHED
    )
    AttributionFactory(source=source, article=article, role=Attribution.Role.CITED)
    response = client.get(source_url(source))
    assert list(response.context["articles"]) == [article]


def test_unknown_source_is_not_found(client):
    """A source slug that does not exist gives 404."""
    assert client.get("/ar/sources/no-such-source/").status_code == 404


def test_source_page_in_english_uses_the_english_name(client):
    """The English edition shows the source's English name."""
    source = SourceFactory(name_ar="الشرق الأوسط", name_en="Asharq Al-Awsat")
    html = client.get(source_url(source, "en")).content.decode()
    assert "Asharq Al-Awsat" in html
