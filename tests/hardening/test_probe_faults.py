"""The faults a production probe found in the admin (issue 30, "The desk"), one
test each: every one answered a server error or a header nginx refuses."""

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from articles.models import Article
from audit.models import AuditEvent
from core.pagination import EstimatedCountPaginator
from tests.factories import ArticleFactory, SectionFactory, UserFactory

pytestmark = pytest.mark.django_db

BIGINT_PAST = "9223372036854775808"
STORIES = "/admin/articles/article/"
# core.middleware.MAX_REDIRECT_LENGTH: well under nginx's 4 KB header buffer.
MAX_REDIRECT_LENGTH = 2000


def test_a_search_that_finds_no_story_answers_an_empty_list(admin_client):
    """A word in no story lists nothing (PostgreSQL explained the empty search to
    an empty string, which the estimated count read as JSON)."""
    ArticleFactory(headline="ميناء")
    response = admin_client.get(STORIES, {"q": "كلمة-في-لا-قصة"})
    assert response.status_code == 200
    assert response.context["cl"].result_count == 0


def test_the_estimated_count_of_a_list_known_to_be_empty_is_zero(db):
    """A queryset Django never sends to the database has no plan: its count is 0."""
    ArticleFactory()
    paginator = EstimatedCountPaginator(Article.objects.filter(pk__in=[]), 100)
    assert paginator.count == 0


@pytest.mark.parametrize(
    "query",
    [
        {"section__id__exact": BIGINT_PAST},
        {"id__gt": BIGINT_PAST},
        {"id": "-9223372036854775809"},
        {"id__in": f"1,{BIGINT_PAST}"},
        {"version__gt": "9" * 40},
    ],
    ids=["section", "id-gt", "id", "id-in", "version"],
)
def test_a_filter_on_a_number_no_column_holds_is_an_invalid_lookup(admin_client, query):
    """An id past the column's range goes back to the list as Django's invalid
    lookups do (`?e=1`), before the database is asked."""
    ArticleFactory(section=SectionFactory())
    response = admin_client.get(STORIES, query)
    assert response.status_code == 302
    assert response["Location"] == f"{STORIES}?e=1"


def test_a_filter_on_an_id_in_range_still_filters(admin_client):
    story = ArticleFactory(section=SectionFactory())
    ArticleFactory(section=SectionFactory())
    response = admin_client.get(STORIES, {"section__id__exact": story.section_id})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [story]


def test_the_add_form_leaves_out_a_section_that_is_no_id(admin_client):
    """`?section=abc` opens the add form without a section (the autocomplete
    widget looked the text up as an id)."""
    response = admin_client.get(f"{STORIES}add/", {"section": "abc"})
    assert response.status_code == 200
    assert "section" not in response.context["adminform"].form.initial


def test_the_add_form_still_takes_a_section_from_the_address(admin_client):
    section = SectionFactory()
    response = admin_client.get(f"{STORIES}add/", {"section": section.pk})
    assert response.status_code == 200
    assert response.context["adminform"].form.initial["section"] == str(section.pk)


@pytest.mark.parametrize("year", ["9" * 40, "9999", "0"])
def test_the_audit_trail_refuses_a_year_no_date_range_has(admin_client, year):
    """`?at__year=` past the calendar is an invalid lookup (Django's date
    hierarchy overflowed computing the year after)."""
    AuditEvent.objects.create(action="x", object_repr="y")
    response = admin_client.get("/admin/audit/auditevent/", {"at__year": year})
    assert response.status_code == 302
    assert response["Location"] == "/admin/audit/auditevent/?e=1"


def test_the_audit_trail_still_shows_a_year(admin_client):
    response = admin_client.get("/admin/audit/auditevent/", {"at__year": "2025"})
    assert response.status_code == 200


def test_a_login_name_longer_than_any_user_s_is_refused_with_a_message(
    client, settings
):
    """A 300-character name answers the form with the length named; django-axes,
    whose column holds 255 characters, never sees it."""
    settings.RATE_LIMITS_ENABLED = False
    response = client.post("/admin/login/", {"username": "a" * 300, "password": "x"})
    assert response.status_code == 200
    assert response.context["form"].errors.as_data()["username"][0].code == (
        "max_length"
    )
    assert not AccessAttempt.objects.exists()


def test_a_wrong_password_still_counts_towards_the_lockout(client, settings):
    settings.RATE_LIMITS_ENABLED = False
    UserFactory(username="reporter")
    client.post("/admin/login/", {"username": "reporter", "password": "wrong"})
    assert AccessAttempt.objects.filter(username="reporter").exists()


def test_the_language_switch_returns_home_instead_of_to_an_overlong_address(
    client,
):
    """A `next` of 2,000 Arabic letters (12,000 characters encoded) sends the
    reader to the chosen edition's home, with the language chosen."""
    response = client.post(
        reverse("set_language"), {"language": "en", "next": "/" + "ع" * 2000}
    )
    assert response.status_code == 302
    assert response["Location"] == "/en/"
    assert response.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_the_language_switch_still_returns_to_the_page(client):
    response = client.get(reverse("set_language"), {"next": "/ar/section/x/"})
    assert response["Location"] == "/ar/section/x/"


@pytest.mark.parametrize(
    "path",
    [
        "/admin/articles/article/" + "a" * 3000,
        "/admin/" + "a" * 3000,
    ],
    ids=["model-path", "site-path"],
)
def test_an_overlong_admin_address_is_not_echoed_into_a_header(admin_client, path):
    """Logged in (a slash appended) or not (the login's `next`), a 3,000-character
    admin address is answered without repeating it in Location."""
    for visitor in (Client(), admin_client):
        response = visitor.get(path)
        assert response.status_code in {302, 404}
        assert len(response.get("Location", "")) <= MAX_REDIRECT_LENGTH


def test_a_redirect_to_the_login_keeps_a_short_next(client):
    response = client.get("/admin/articles/article/")
    assert response["Location"] == "/admin/login/?next=/admin/articles/article/"


def test_an_overlong_login_redirect_loses_its_query_not_its_path(client):
    response = client.get("/admin/articles/article/?q=" + "x" * 3000)
    assert response.status_code == 302
    assert response["Location"] == "/admin/login/"
