"""The partners' API against odd requests: hostile ids, cursors, times, filters,
limits and keys, on every route, for a partner with a key and for strangers.
None answers a server error."""

from urllib.parse import quote

import pytest
from django.test import Client

from core.roles import EDITORS
from distribution.models import Partner
from distribution.services import partner_key_create, partner_save
from tests.factories import ArticleFactory, member_of
from tests.hardening.test_url_fuzz import HUGE, ODD_IDS, ODD_SLUGS

pytestmark = pytest.mark.django_db

# 422 is the API's answer to a value out of its declared range.
CLEAN = {200, 304, 400, 401, 403, 404, 405, 422, 429}
ODD_TIMES = [
    "",
    "0",
    "-1",
    HUGE,
    "9999-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "2025-02-30T00:00:00Z",
    "2025-01-01T00:00:00+99:00",
    "99999-01-01",
    "%00",
    "now",
]
ODD_VALUES = ["", "%00", "x" * 5000, HUGE, "-1", "%ff%fe", "%e2%80%ae", "a%0d%0ab"]


def api_paths(story_id: int) -> list[str]:
    root = "/api/ninjs/"
    paths = [root, "/api/openapi.json", "/api/docs", "/api/", "/api/nope"]
    paths += [f"{root}?since={quote(t, safe='%')}" for t in ODD_TIMES]
    paths += [f"{root}?cursor={v}" for v in ODD_VALUES + ["eyJ9", "e30", "AAAA"]]
    paths += [f"{root}?limit={v}" for v in ["0", "101", HUGE, "1e9", "abc", "-5"]]
    for name in ("section", "tag", "source", "language"):
        paths += [f"{root}?{name}={v}" for v in ODD_VALUES]
    paths += [f"{root}?" + "&".join(f"f{i}=1" for i in range(3000))]
    for odd in ODD_IDS:
        paths += [f"{root}{odd}/ar", f"{root}{odd}/en"]
    for odd in ODD_SLUGS[:10]:
        paths += [f"{root}{story_id}/{odd}"]
    return paths


@pytest.fixture
def key() -> str:
    editor = member_of(EDITORS)
    partner = partner_save(partner=Partner(name="Gulf Daily"), by=editor)
    return partner_key_create(partner=partner, by=editor)[1]


def answers(client: Client, paths: list[str], **headers) -> dict[int, list[str]]:
    seen: dict[int, list[str]] = {}
    for path in paths:
        response = client.get(path, headers=headers)
        seen.setdefault(response.status_code, []).append(path[:120])
    return seen


def unclean(seen: dict[int, list[str]]) -> dict[int, list[str]]:
    return {status: paths for status, paths in seen.items() if status not in CLEAN}


def test_odd_requests_of_a_partner_never_answer_a_server_error(key, settings):
    settings.PARTNER_API_SETTLE_SECONDS = 0
    settings.RATE_LIMITS_ENABLED = False
    paths = api_paths(ArticleFactory().pk)
    seen = answers(
        Client(raise_request_exception=False), paths, Authorization=f"Bearer {key}"
    )
    print(f"{len(paths)} API requests:", {s: len(p) for s, p in sorted(seen.items())})
    assert len(paths) >= 80
    assert unclean(seen) == {}


@pytest.mark.parametrize(
    "authorization",
    [
        "",
        "Bearer",
        "Bearer ",
        "Bearer nk_",
        "Bearer nk_x_y",
        "Bearer nk_" + "a" * 5000 + "_b",
        "Bearer \u0000",
        "Basic Zm9vOmJhcg==",
        "Bearer nk_%00_%00",
    ],
)
def test_odd_keys_are_refused_without_a_server_error(authorization):
    client = Client(raise_request_exception=False)
    for path in ("/api/ninjs/", f"/api/ninjs/{HUGE}/ar"):
        response = client.get(path, headers={"Authorization": authorization})
        assert response.status_code in {401, 403, 404}, (path, authorization)
        response = client.get(path, headers={"X-Api-Key": authorization[7:]})
        assert response.status_code in {401, 403, 404}, (path, authorization)
