"""No answer tells a protected legal name from any other string: the same requests,
made before and after someone is protected, get the same answers (status, length,
body), the reader's own words shown back as typed."""

import itertools
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from core.roles import EDITORS, REPORTERS
from distribution.models import Partner
from distribution.services import partner_key_create, partner_save
from tests.factories import (
    ArticleFactory,
    ProtectedPersonFactory,
    SectionFactory,
    member_of,
)

pytestmark = pytest.mark.django_db

GIVEN = ("يوسف", "مازن", "Karim", "ليلى")
FAMILY = ("المنصوري", "الخطيب", "Haddad")
PROTECTED = "يوسف المنصوري"
# What changes from one response to the next whatever is asked (the CSP nonce).
_PER_RESPONSE = re.compile(r'nonce="[^"]*"')


def candidates() -> list[str]:
    """Names an adversary might try, the protected one among them, alone and with
    a word the stories hold."""
    names = [" ".join(pair) for pair in itertools.product(GIVEN, FAMILY)]
    return names + [f"{name} الجسر" for name in names[:3]]


def answer(client, query: str) -> tuple[int, str]:
    response = client.get(reverse("articles:search"), {"q": query})
    body = _PER_RESPONSE.sub("", response.content.decode())
    return response.status_code, body


def searches(client) -> dict[str, tuple[int, int, str]]:
    """Each candidate's answer, its echo taken out: what differs then is the answer."""
    found = {}
    for query in candidates():
        status, body = answer(client, query)
        found[query] = (status, len(body), body.replace(escape(query), "…"))
    return found


def test_a_search_answers_the_same_whether_the_name_searched_is_protected(client):
    ArticleFactory(headline_ar="افتتاح الجسر الجديد")
    before = searches(client)
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    after = searches(client)
    assert PROTECTED in candidates()
    assert after == before
    assert {status for status, _length, _body in after.values()} == {200}


def test_the_search_page_shows_the_query_as_typed(client):
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    status, body = answer(client, f'{PROTECTED} <b>"')
    assert status == 200
    assert f'value="{escape(PROTECTED)} &lt;b&gt;&quot;"' in body
    assert "echo" not in body  # no token is left behind


def test_a_query_spelling_the_name_whole_and_split_shows_as_typed(client):
    """A value that is an echo on its own and again with the rest of the query."""
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    given, _, family = PROTECTED.partition(" ")
    response = client.get(reverse("articles:search"), {"q": PROTECTED, given: family})
    body = response.content.decode()
    assert response.status_code == 200
    assert f'value="{escape(PROTECTED)}"' in body
    assert "echo" not in body


def test_the_search_page_is_as_long_as_it_says(client):
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    response = client.get(reverse("articles:search"), {"q": PROTECTED})
    assert int(response["Content-Length"]) == len(response.content)


def test_a_page_naming_the_protected_person_is_withheld_whatever_the_query(client):
    """The echo is read past, never the page's own text: a section planted with
    the name (in every page's menu) withholds a search for that very name."""
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    section = SectionFactory(name_ar="محليات")
    type(section).objects.filter(pk=section.pk).update(name_ar=PROTECTED)
    status, body = answer(client, PROTECTED)
    assert status == 503
    assert "المنصوري" not in body


def addresses(client) -> dict[str, tuple[int, str, bytes]]:
    """Addresses spelled with each candidate, with and without their last slash."""
    found = {}
    for name, slash in itertools.product(candidates(), ("", "/")):
        for address in (f"/ar/section/{name}{slash}", f"/ar/news/1/{name}{slash}"):
            response = client.get(address)
            found[address] = (
                response.status_code,
                response.get("Location", ""),
                _PER_RESPONSE.sub("", response.content.decode()).encode(),
            )
    return found


def test_an_address_answers_the_same_whether_the_name_it_spells_is_protected(client):
    """A missing slash is answered with a redirect repeating the address: the
    reader's own words, as on the search page."""
    before = addresses(client)
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    assert addresses(client) == before


API_PARAMETERS = ("language", "limit", "section", "tag", "source", "cursor", "since")


def api_answers(client, key: str) -> dict[tuple[str, str], tuple[int, bytes]]:
    """The partners' list asked with each candidate in each parameter."""
    found = {}
    for parameter, query in itertools.product(API_PARAMETERS, candidates()):
        response = client.get(
            reverse("partner-api:ninjs-list"),
            {parameter: query},
            headers={"Authorization": f"Bearer {key}"},
        )
        found[parameter, query] = (response.status_code, response.content)
    return found


def test_the_partners_api_answers_the_same_whether_a_name_sent_is_protected(client):
    editor = member_of(EDITORS)
    partner = partner_save(
        partner=Partner(name="Gulf Daily", rate_limit=10_000), by=editor
    )
    key = partner_key_create(partner=partner, by=editor)[1]
    before = api_answers(client, key)
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    after = api_answers(client, key)
    assert after == before
    assert {status for status, _body in after.values()} <= {200, 400, 422}


# The admin's CSRF token changes from one response to the next too.
_PER_ADMIN_RESPONSE = re.compile(
    r'nonce="[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"'
)


def admin_answers(client, address: str, asked=lambda query: {"q": query}) -> dict:
    """`address` asked with each candidate in the query `asked` makes of it."""
    found = {}
    for query in candidates():
        response = client.get(address, asked(query))
        body = _PER_ADMIN_RESPONSE.sub("", response.content.decode())
        found[query] = (response.status_code, len(body), body)
    return found


def test_the_admin_list_answers_the_same_whether_a_name_searched_is_protected(
    client,
):
    ArticleFactory(headline_ar="افتتاح الجسر الجديد")
    client.force_login(member_of(REPORTERS))
    stories = reverse("admin:articles_article_changelist")
    before = admin_answers(client, stories)
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    after = admin_answers(client, stories)
    assert after == before
    assert {status for status, _length, _body in after.values()} == {200}


def test_a_story_opened_from_a_search_answers_the_same_whether_the_name_is_protected(
    client,
):
    """The list's search travels to the story's page (its links back to the list,
    the form's address)."""
    story = ArticleFactory(headline_ar="افتتاح الجسر الجديد")
    client.force_login(member_of(EDITORS))
    page = reverse("admin:articles_article_change", args=[story.pk])

    def from_search(query):
        return {"_changelist_filters": f"q={query}"}

    before = admin_answers(client, page, from_search)
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    after = admin_answers(client, page, from_search)
    assert after == before
    assert {status for status, _length, _body in after.values()} == {200}


def query_answers(client, addresses: list[str]) -> dict:
    """Each address asked with each candidate in a parameter it reads (the
    search's section), in one it ignores, as a link carrying it would, as the
    name of a parameter, and split across a parameter's name and value."""
    found = {}
    for address, parameter, query in itertools.product(
        addresses, ("section", "utm_campaign", None, "split"), candidates()
    ):
        given, _, family = query.partition(" ")
        asked = {
            "section": {"section": query},
            "utm_campaign": {"utm_campaign": query},
            None: {query: "1"},
            # A name split across a parameter's name and value.
            "split": {given: family},
        }[parameter]
        response = client.get(address, asked)
        body = _PER_RESPONSE.sub("", response.content.decode())
        found[address, parameter, query] = (response.status_code, body)
    return found


def test_any_page_answers_the_same_whatever_its_address_carries(client, settings):
    """A page repeating its address (the other edition's link, the search's
    filters) repeats the reader's own words, read past like the search box."""
    settings.RATE_LIMITS_ENABLED = False
    story = ArticleFactory(headline_ar="افتتاح الجسر الجديد", headline_en="Bridge")
    addresses = ["/ar/", reverse("articles:search"), story.get_absolute_url()]
    before = query_answers(client, addresses)
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    after = query_answers(client, addresses)
    assert after == before
    assert {status for status, _body in after.values()} == {200}


def test_an_add_form_shows_its_initial_text_as_typed(client):
    """`?headline_ar=` fills the form: the reporter's own words, neither
    rewritten to the pseudonym nor withheld."""
    ProtectedPersonFactory(name=PROTECTED, public_name="الشاهد")
    client.force_login(member_of(REPORTERS))
    response = client.get(
        reverse("admin:articles_article_add"), {"headline_ar": PROTECTED}
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert escape(PROTECTED) in body
    assert "الشاهد" not in body
