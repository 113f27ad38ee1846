"""Every admin page the site registers, as every role, with hostile input: none
answers a server error, and no response header grows with the input.

The admins are read from the site's registry (a new admin is fuzzed without being
named here). Each is fuzzed as a plain member of each role group and as a
superuser: its change list with odd searches, every filter's parameters, lookups
on its ids, its date hierarchy, ordering and page numbers; its add and change
forms with odd initial values; its autocomplete fields. A role the admin refuses
(403) gets a sample of the same requests: the refusal is all there is to see.
Then the doors every visitor reaches: the login form, the language switch, and
an overlong admin address.

Headers are bounded because nginx refuses (502) a response whose headers outgrow
its proxy buffer (one memory page, 4 KB, by default): no header value may pass
HEADER_MAX, nor all of a response's headers HEADERS_TOTAL_MAX.
"""

from urllib.parse import quote, urlencode

import pytest
from django.apps import apps
from django.contrib import admin
from django.test import Client

from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS, SOURCE_MANAGERS
from tests.factories import (
    ArticleFactory,
    AttributionFactory,
    PersonFactory,
    SectionFactory,
    SourceFactory,
    SuperuserFactory,
    member_of,
)

pytestmark = pytest.mark.django_db

HEADER_MAX = 2048
HEADERS_TOTAL_MAX = 4096
# A server error or a debug page shows up here; anything else is a clean answer.
CLEAN = {200, 204, 301, 302, 304, 400, 403, 404, 405, 410}

HUGE = "9" * 40
BIGINT_PAST = "9223372036854775808"
OUT_OF_RANGE = [HUGE, BIGINT_PAST, "-9223372036854775809", "2147483648"]
ODD_VALUES = [
    HUGE,
    BIGINT_PAST,
    "-1",
    "abc\u202e\u0627",
    "1,abc," + BIGINT_PAST,
    "x" * 5000,
    "0001-01-01",
]
ODD_SEARCHES = [
    "كلمة-في-لا-قصة",
    "x" * 5000,
    "\u202e\u200b",
    "%_\\",
    "١٢",
    "\x00",
    "' OR 1=1--",
]
ODD_ORDERINGS = ["99", "-1", "abc", "0." * 500]
ODD_PAGES = ["abc", "-1", HUGE, BIGINT_PAST]
ODD_YEARS = [HUGE, "-1", "0", "1", "9999", "10000", "abc"]
ODD_INITIAL = ["abc", HUGE, "1,abc", "x" * 5000]
ROLES = [REPORTERS, EDITORS, SOURCE_MANAGERS, IDENTITY_OFFICERS]


def registered_models() -> list[str]:
    return sorted(
        model._meta.label
        for model in apps.get_models()
        if admin.site.is_registered(model)
    )


@pytest.fixture
def newsroom():
    """A little of everything, so change lists have rows and forms have objects."""
    story = ArticleFactory(section=SectionFactory())
    AttributionFactory(article=story, source=SourceFactory())
    PersonFactory()


@pytest.fixture
def clients(settings) -> dict[str, Client]:
    """One logged-in client for each role, and one for a superuser."""
    settings.RATE_LIMITS_ENABLED = False
    found = {}
    for role in ROLES:
        found[role] = Client(raise_request_exception=False)
        found[role].force_login(member_of(role))
    found["superuser"] = Client(raise_request_exception=False)
    found["superuser"].force_login(SuperuserFactory(username="fuzzer"))
    return found


def with_query(path: str, **params) -> str:
    return f"{path}?{urlencode(params)}"


def filter_parameters(superuser: Client, changelist: str) -> list[str]:
    """The query parameters of the change list's filters, as its page offers them."""
    response = superuser.get(changelist)
    found = response.context and response.context.get("cl")
    if found is None:
        return []
    return sorted(
        {name for spec in found.filter_specs for name in spec.expected_parameters()}
    )


def changelist_paths(model, model_admin, superuser: Client) -> list[str]:
    opts = model._meta
    changelist = f"/admin/{opts.app_label}/{opts.model_name}/"
    paths = [with_query(changelist, q=term) for term in ODD_SEARCHES]
    for name in filter_parameters(superuser, changelist):
        paths += [with_query(changelist, **{name: value}) for value in ODD_VALUES]
    pk = opts.pk.attname
    for lookup in (pk, f"{pk}__gt", f"{pk}__lt", f"{pk}__in", f"{pk}__range"):
        paths += [with_query(changelist, **{lookup: v}) for v in OUT_OF_RANGE[:2]]
    if field := model_admin.date_hierarchy:
        for value in ODD_YEARS:
            paths.append(with_query(changelist, **{f"{field}__year": value}))
        for month, day in [(HUGE, None), ("13", None), ("12", "31"), ("2", HUGE)]:
            params = {f"{field}__year": "9999", f"{field}__month": month}
            if day is not None:
                params[f"{field}__day"] = day
            paths.append(with_query(changelist, **params))
    paths += [with_query(changelist, o=value) for value in ODD_ORDERINGS]
    paths += [with_query(changelist, p=value) for value in ODD_PAGES]
    paths.append(with_query(changelist, q="x", p=HUGE, o="abc", e="1"))
    return paths


def form_paths(model) -> list[str]:
    """The add form, and a change form, with every field's initial value odd."""
    opts = model._meta
    base = f"/admin/{opts.app_label}/{opts.model_name}/"
    names = [field.name for field in opts.get_fields() if field.concrete]
    first = model._default_manager.order_by("pk").first()
    targets = [f"{base}add/"]
    if first is not None:
        targets.append(f"{base}{quote(str(first.pk))}/change/")
    paths = []
    for target in targets:
        paths += [with_query(target, **dict.fromkeys(names, v)) for v in ODD_INITIAL]
        paths.append(with_query(target, _changelist_filters="q=" + "x" * 3000))
        paths.append(with_query(target, _to_field="nope", _popup="1"))
    return paths


def autocomplete_paths(model_admin) -> list[str]:
    opts = model_admin.model._meta
    paths = []
    for field_name in model_admin.autocomplete_fields:
        asked = {
            "app_label": opts.app_label,
            "model_name": opts.model_name,
            "field_name": field_name,
        }
        for term in ["x" * 5000, "\u202e", "%_", "١", "' OR 1=1--"]:
            paths.append(with_query("/admin/autocomplete/", **asked, term=term))
        for page in ["abc", HUGE, "-1"]:
            paths.append(
                with_query("/admin/autocomplete/", **asked, term="a", page=page)
            )
    odd = {"app_label": "x" * 3000, "model_name": "%00", "field_name": HUGE}
    paths.append(with_query("/admin/autocomplete/", **odd, term="a"))
    return paths


def oversized_headers(response) -> dict[str, int]:
    sizes = {name: len(name) + len(value) for name, value in response.items()}
    found = {name: size for name, size in sizes.items() if size > HEADER_MAX}
    if sum(sizes.values()) > HEADERS_TOTAL_MAX:
        found["(all)"] = sum(sizes.values())
    return found


class Fuzzer:
    """Sends requests and keeps what was not clean: a server error or a header
    past its bound."""

    def __init__(self):
        self.sent = 0
        self.problems: list[tuple] = []

    def send(self, client: Client, path: str, method: str = "get", **kwargs):
        response = getattr(client, method)(path, **kwargs)
        self.sent += 1
        if response.status_code not in CLEAN:
            self.problems.append((response.status_code, path[:160]))
        if oversized := oversized_headers(response):
            self.problems.append((response.status_code, path[:160], oversized))
        return response


@pytest.mark.parametrize("label", registered_models())
def test_every_admin_answers_hostile_input_cleanly_for_every_role(
    label, newsroom, clients
):
    """Change list, filters, forms and autocomplete of one admin, as each role."""
    model = apps.get_model(label)
    model_admin = admin.site.get_model_admin(model)
    paths = changelist_paths(model, model_admin, clients["superuser"])
    paths += form_paths(model)
    paths += autocomplete_paths(model_admin)
    fuzzer = Fuzzer()
    for client in clients.values():
        refused = fuzzer.send(client, paths[0]).status_code == 403
        # A refused role gets every fifth request: each kind of page is still
        # asked for, and each answers the same refusal.
        for path in paths[1::5] if refused else paths[1:]:
            fuzzer.send(client, path)
    print(f"\n{label}: {fuzzer.sent} requests, {len(fuzzer.problems)} not clean")
    assert fuzzer.problems == []


LONG_PATHS = [
    "/admin/" + "a" * 3000,
    "/admin/articles/article/" + "a" * 3000,
    "/admin/articles/article/" + "a" * 3000 + "/",
    "/admin/articles/article/1/change/?_changelist_filters=" + "q%3D" + "x" * 3000,
    "/admin/" + "ع" * 1000 + "/",
    "/ar/" + "a" * 3000,
    "/ar/news/1/" + "ع" * 600,
]
ODD_NEXTS = [
    "/" + "a" * 3000,
    "/" + "ع" * 2000,
    "/ar/" + "ع" * 400,
    "//evil.example/",
    "https://evil.example/" + "a" * 3000,
    "/\x00",
    "javascript:alert(1)",
    "",
]
ODD_USERNAMES = ["a" * 300, "ع" * 300, "a\u202e" * 200, "' OR 1=1--", "x" * 5000]


def test_overlong_addresses_and_language_switches_keep_headers_bounded(
    newsroom, clients
):
    """Long admin and public addresses, and the language switch asked to return to
    long or unsafe addresses, answer cleanly with bounded headers, for every role
    and for an anonymous visitor."""
    fuzzer = Fuzzer()
    visitors = [Client(raise_request_exception=False), *clients.values()]
    for client in visitors:
        for path in LONG_PATHS:
            fuzzer.send(client, path)
        for next_url in ODD_NEXTS:
            fuzzer.send(client, with_query("/i18n/setlang/", next=next_url))
            fuzzer.send(
                client,
                "/i18n/setlang/",
                "post",
                data={"language": "en", "next": next_url},
            )
        fuzzer.send(
            client,
            "/i18n/setlang/",
            "post",
            data={"language": "xx"},
            HTTP_REFERER="/" + "a" * 3000,
        )
    print(f"\naddresses: {fuzzer.sent} requests, {len(fuzzer.problems)} not clean")
    assert fuzzer.problems == []


def test_hostile_login_attempts_answer_cleanly(db, settings):
    """Long, odd and undecodable user names at the login form answer the form
    again, never a server error."""
    settings.RATE_LIMITS_ENABLED = False
    fuzzer = Fuzzer()
    client = Client(raise_request_exception=False)
    for username in ODD_USERNAMES:
        fuzzer.send(
            client,
            "/admin/login/",
            "post",
            data={"username": username, "password": "x"},
        )
    for body in [
        b"username=%ff%fe%fd&password=x",
        b"username=%00&password=%00",
        b"%zz=1",
    ]:
        fuzzer.send(
            client,
            "/admin/login/",
            "post",
            data=body,
            content_type="application/x-www-form-urlencoded",
        )
    print(f"\nlogin: {fuzzer.sent} requests, {len(fuzzer.problems)} not clean")
    assert fuzzer.problems == []
