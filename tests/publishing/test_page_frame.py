"""The page frame every public page shares: rendered once per language, it still
follows the edition and never carries one page's values into another."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_frame_is_in_the_language_of_each_edition(client):
    """Arabic and English pages, one after the other, each get their own labels
    and addresses."""
    arabic = client.get("/ar/").content.decode()
    english = client.get("/en/").content.decode()
    arabic_again = client.get("/ar/").content.decode()
    assert "انتقل إلى المحتوى" in arabic and "انتقل إلى المحتوى" in arabic_again
    assert 'action="/ar/search/"' in arabic
    assert "Skip to content" in english
    assert 'action="/en/search/"' in english


def test_a_search_query_stays_on_its_own_page(client):
    """The search box shows the reader's query on the results page only."""
    results = client.get("/ar/search/", {"q": "قمح"}).content.decode()
    home = client.get("/ar/").content.decode()
    assert 'value="قمح"' in results
    assert "قمح" not in home
