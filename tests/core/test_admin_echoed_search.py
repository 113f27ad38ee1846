"""An admin list's search term, read as a token while the page is read for legal
names (identity.redaction, core.echo), is searched for and shown as typed: in the
search box, the list's links, the links to its stories and the way back."""

from urllib.parse import quote_plus

import pytest
from django.urls import reverse
from django.utils.html import escape

from core.echo import Echo
from core.roles import EDITORS, REPORTERS
from tests.admin_forms import change_form_data
from tests.factories import ArticleFactory, member_of

pytestmark = pytest.mark.django_db

STORIES = "admin:articles_article_changelist"
# Words that every place encodes differently.
TYPED = 'الجسر & "جديد"'


@pytest.fixture
def reporter(client):
    client.force_login(member_of(REPORTERS))
    return client


def test_a_reporter_finds_stories_by_the_words_typed(reporter):
    ArticleFactory(headline_ar="افتتاح الجسر الجديد")
    ArticleFactory(headline_ar="مباراة الفريق")
    page = reporter.get(reverse(STORIES), {"q": "الجسر"}).content.decode()
    assert "افتتاح الجسر الجديد" in page
    assert "مباراة الفريق" not in page


def test_the_search_box_shows_the_words_as_typed(reporter):
    page = reporter.get(reverse(STORIES), {"q": TYPED}).content.decode()
    assert f'value="{escape(TYPED)}"' in page
    assert "echo" not in page


def test_the_lists_links_carry_the_words_once_encoded(reporter):
    page = reporter.get(reverse(STORIES), {"q": TYPED}).content.decode()
    assert escape(f"q={quote_plus(TYPED)}") in page


def test_a_storys_link_carries_the_words_within_the_lists_filters(reporter):
    ArticleFactory(headline_ar="افتتاح الجسر الجديد")
    page = reporter.get(reverse(STORIES), {"q": "الجسر"}).content.decode()
    assert f"_changelist_filters=q%3D{quote_plus(quote_plus('الجسر'))}" in page


def test_the_page_is_as_long_as_it_says(reporter):
    response = reporter.get(reverse(STORIES), {"q": TYPED})
    assert int(response["Content-Length"]) == len(response.content)


def test_saving_a_story_opened_from_a_search_returns_to_the_search(client):
    story = ArticleFactory(headline_ar="افتتاح الجسر الجديد")
    client.force_login(member_of(EDITORS))
    page = reverse("admin:articles_article_change", args=[story.pk])
    filters = {"_changelist_filters": "q=الجسر"}
    form = client.get(page, filters)
    response = client.post(
        f"{page}?_changelist_filters={quote_plus('q=الجسر')}",
        change_form_data(form),
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"?q={quote_plus('الجسر')}")


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ('<input value="{}">', '<input value="a &amp; &quot;b&quot;">'),
        ("?q={}&amp;o=1", "?q=a+%26+%22b%22&amp;o=1"),
        (
            "?_changelist_filters=q%3D{}",
            "?_changelist_filters=q%3Da%2B%2526%2B%2522b%2522",
        ),
    ],
)
def test_an_echo_is_restored_encoded_for_where_it_stands(body, shown):
    echo = Echo(value='a & "b"', token="echo0123")
    assert echo.restored(body.format(echo.token)) == shown


def test_an_echo_in_json_is_restored_as_a_json_string():
    echo = Echo(value='a "b" \\', token="echo0123")
    assert echo.restored('{"q": "echo0123"}', markup=False) == '{"q": "a \\"b\\" \\\\"}'
