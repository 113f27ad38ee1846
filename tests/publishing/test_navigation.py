"""The section menu on every public page."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import ArticleFactory, SectionFactory

pytestmark = pytest.mark.django_db


def test_menu_lists_sections_in_the_active_language(client):
    """Arabic pages name sections in Arabic, English pages in English."""
    SectionFactory(name_ar="اقتصاد", name_en="Economy")
    with translation.override("ar"):
        arabic = client.get(reverse("articles:home")).content.decode()
    with translation.override("en"):
        english = client.get(reverse("articles:home")).content.decode()
    assert "اقتصاد" in arabic
    assert "Economy" in english


def test_menu_is_served_from_the_cache(client, django_assert_num_queries):
    """After the first page, the menu costs no query."""
    ArticleFactory()
    url = reverse("articles:home")
    client.get(url)
    with django_assert_num_queries(1):  # the page of stories, nothing for the menu
        client.get(url)


def test_a_new_section_appears_in_the_menu_at_once(client):
    """Saving a section clears the cached menu."""
    url = reverse("articles:home")
    client.get(url)
    SectionFactory(name_ar="رياضة")
    assert "رياضة" in client.get(url).content.decode()
