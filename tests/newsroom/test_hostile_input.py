"""Hostile input gets a clear answer, never a server error."""

import pytest
from django.urls import reverse

from articles.body import sanitize_html
from core.roles import EDITORS
from tests.factories import ArticleFactory, member_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/ar/tag/%00/",
        "/ar/section/x%00y/",
        "/ar/sources/%00/",
        "/en/people/1/%00/",
        "/ar/tag/%00/feed/",
        "/ar/news/1/%00/",
    ],
)
def test_a_nul_in_an_address_is_not_found(client, path):
    """A NUL in a slug answers 404, not a server error."""
    ArticleFactory()
    assert client.get(path).status_code == 404


def test_a_nul_in_a_query_is_not_found(client):
    """A NUL in the query string too."""
    assert client.get("/ar/?page=1%00").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/admin/audit/auditevent/?action__exact=%00",
        "/admin/articles/article/?status__exact=%00",
        "/admin/articles/article/?q=%00",
        "/admin/articles/article/?%00=1",
        "/admin/autocomplete/?app_label=articles&model_name=byline"
        "&field_name=user&term=%00",
    ],
)
def test_a_nul_in_an_admin_filter_or_search_is_not_found(client, path):
    """Decoded, "%00" is a NUL, which PostgreSQL refuses: 404, not a server error."""
    client.force_login(member_of(EDITORS))
    assert client.get(path).status_code == 404


def test_a_nul_in_a_posts_links_is_a_form_error(admin_client):
    """The links field of a social post refuses a NUL with a message."""
    from tests.articles.test_admin import article_post_data, management_form

    data = article_post_data(
        **management_form("social_posts", total=1),
        **{
            "social_posts-0-platform": "x",
            "social_posts-0-text": "نص",
            "social_posts-0-links": "https://t.co/a\x00b",
        },
    )
    admin_client.cookies["django_language"] = "en"
    response = admin_client.post(reverse("admin:articles_article_add"), data)
    assert response.status_code == 200
    errors = [
        inline.formset.errors for inline in response.context["inline_admin_formsets"]
    ]
    assert "Null characters are not allowed." in str(errors)


@pytest.mark.parametrize(
    "html",
    [
        '<blockquote cite="javascript:alert(1)">x</blockquote>',
        '<p><q cite="JaVaScRiPt:alert(1)">x</q></p>',
        '<blockquote cite=" javascript:alert(1)">x</blockquote>',
    ],
)
def test_a_script_citation_does_not_survive_sanitizing(html):
    """No citation address survives: the body editor makes none."""
    assert "javascript" not in sanitize_html(html).lower()


def test_a_citation_address_is_not_part_of_the_body():
    """Even an http(s) cite is dropped, since the editor could not show or edit it."""
    clean = sanitize_html('<blockquote cite="https://example.com/a">x</blockquote>')
    assert clean == "<blockquote>x</blockquote>"
