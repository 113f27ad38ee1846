"""The partners' content API: keys, the one rule of what a partner may receive,
the sync by cursor and time, kills and corrections as new versions, withholding,
HTTP conventions (ETag, gzip, private caching, rate limits) and its OpenAPI."""

import gzip
import json
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openapi_spec_validator import validate

from articles.models import Article, Status
from articles.services import article_kill, article_publish, correction_add
from audit.models import AuditEvent
from core.roles import EDITORS
from distribution.models import Event, Partner
from distribution.releases import release_record
from distribution.services import partner_key_create, partner_key_revoke, partner_save
from sources.models import Source
from tests.distribution.test_ninjs import (
    LEGAL,
    PSEUDONYM,
    picture,
    problems,
    rich_story,
    validators,
)
from tests.factories import (
    ArticleFactory,
    AttributionFactory,
    DraftArticleFactory,
    ProtectedPersonFactory,
    SectionFactory,
    SourceFactory,
    member_of,
)

pytestmark = pytest.mark.django_db

LIST = reverse("partner-api:ninjs-list")


def story_url(article, language="ar") -> str:
    return reverse("partner-api:ninjs-story", args=[article.pk, language])


@pytest.fixture(autouse=True)
def settled(settings):
    """Releases are listed at once (the settle window has its own tests)."""
    settings.PARTNER_API_SETTLE_SECONDS = 0


@pytest.fixture
def editor():
    return member_of(EDITORS)


@pytest.fixture
def partner(editor):
    return partner_save(partner=Partner(name="Gulf Daily"), by=editor)


@pytest.fixture
def key(partner, editor) -> str:
    return partner_key_create(partner=partner, by=editor)[1]


@pytest.fixture
def api(client, key):
    """GET as the partner, with its key as a bearer token."""

    def get(url, **params):
        headers = params.pop("headers", {})
        return client.get(
            url, params, headers={"Authorization": f"Bearer {key}", **headers}
        )

    return get


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    def run(change, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return change(*args, **kwargs)

    return run


def released(article: Article | None = None, **fields) -> Article:
    """A published story, released to partners a moment ago."""
    article = article or ArticleFactory(**fields)
    release_record(article, Event.PUBLISHED, at=timezone.now() - timedelta(seconds=1))
    return article


def listed(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [
        int(item["document"]["uri"].rsplit("/", 2)[1])
        for item in response.json()["items"]
    ]


# ------------------------------------------------------------------ keys


def test_anonymous_gets_401_and_no_data(client):
    story = released()
    for url in (LIST, story_url(story)):
        response = client.get(url)
        assert response.status_code == 401
        assert response.json() == {"detail": "Unauthorized"}


def test_a_key_is_accepted_in_either_header(client, key):
    story = released()
    bearer = client.get(LIST, headers={"Authorization": f"Bearer {key}"})
    header = client.get(LIST, headers={"X-Api-Key": key})
    assert listed(bearer) == listed(header) == [story.pk]


def test_a_wrong_key_gets_401(client, key):
    released()
    response = client.get(LIST, headers={"X-Api-Key": key[:-2] + "zz"})
    assert response.status_code == 401


def test_a_revoked_key_gets_401_and_the_new_one_works(client, partner, editor, key):
    """Rotation: a second key is made, the partner switches, the old is revoked."""
    released()
    _new, new_key = partner_key_create(partner=partner, by=editor)
    assert client.get(LIST, headers={"X-Api-Key": new_key}).status_code == 200
    partner_key_revoke(key=partner.keys.get(prefix=key[3:15]), by=editor)
    assert client.get(LIST, headers={"X-Api-Key": key}).status_code == 401
    assert client.get(LIST, headers={"X-Api-Key": new_key}).status_code == 200


def test_an_inactive_partner_gets_403(api, partner):
    partner.active = False
    partner.save()
    response = api(LIST)
    assert response.status_code == 403
    assert "items" not in response.json()


# ------------------------------------------------------------------ rights


@pytest.fixture
def agency_story():
    agency = SourceFactory(name="وكالة الأنباء", kind=Source.Kind.AGENCY)
    story = ArticleFactory()
    AttributionFactory(article=story, source=agency)
    return released(story)


def test_a_partner_without_the_agencys_rights_never_sees_its_story(api, agency_story):
    own = released()
    assert listed(api(LIST)) == [own.pk]
    assert api(story_url(agency_story)).status_code == 404


def test_a_partner_holding_the_agencys_rights_gets_its_story(
    api, partner, agency_story
):
    partner.rights_sources.add(*Source.objects.all())
    assert listed(api(LIST)) == [agency_story.pk]
    assert (
        api(story_url(agency_story))
        .json()["uri"]
        .endswith(f"/api/ninjs/{agency_story.pk}/ar")
    )


def test_a_partner_gets_only_its_sections(api, partner):
    sport = SectionFactory()
    partner.sections.add(sport)
    match, other = released(section=sport), released()
    assert listed(api(LIST)) == [match.pk]
    assert api(story_url(other)).status_code == 404


# ------------------------------------------------------------------ documents


def test_the_story_endpoint_serves_a_valid_ninjs_document(api):
    story = released(headline_en="The new bridge")
    response = api(story_url(story, "en"))
    assert response.status_code == 200
    document = response.json()
    assert document["headlines"][0]["value"] == "The new bridge"
    assert document["language"] == "en"
    schemas = validators()
    if schemas is not None:
        assert problems(schemas[1], document) == []


def test_listed_documents_are_valid_ninjs(api):
    released(headline_en="The new bridge")
    schemas = validators()
    for item in api(LIST).json()["items"]:
        assert item["event"] == Event.PUBLISHED
        if schemas is not None:
            assert problems(schemas[1], item["document"]) == []


def test_a_draft_is_never_served(api):
    draft = DraftArticleFactory()
    assert api(story_url(draft)).status_code == 404
    assert listed(api(LIST)) == []


def test_an_unknown_story_or_edition_is_404(api):
    story = released()
    assert api(reverse("partner-api:ninjs-story", args=[999999, "ar"])).status_code
    assert api(story_url(story, "fr")).status_code == 404
    assert api(story_url(story, "en")).status_code == 404  # never released in en


def test_a_scheduled_story_is_served_from_its_time_only(api, editor, commits):
    story = DraftArticleFactory()
    commits(
        article_publish,
        article=story,
        by=editor,
        at=timezone.now() + timedelta(hours=1),
    )
    assert api(story_url(story)).status_code == 404
    assert listed(api(LIST)) == []


# ------------------------------------------------------------------ withholding


def test_a_planted_legal_name_withholds_the_story(api):
    """A legal name written around every door (a raw update): the story endpoint
    answers withheld with nothing of the story, and the list leaves it out."""
    ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)
    story, clean = released(), released()
    Article.objects.filter(pk=story.pk).update(summary_ar=f"قال {LEGAL} إن الجسر تأخر.")
    response = api(story_url(story))
    assert response.status_code == 200
    document = response.json()
    assert document["pubStatus"] == "withheld"
    assert "headlines" not in document and "descriptions" not in document
    assert "المنصوري" not in response.content.decode()
    page = api(LIST)
    assert listed(page) == [clean.pk]
    assert "المنصوري" not in page.content.decode()


# ------------------------------------------------------------------ the sync


def test_paging_with_the_cursor_gives_each_story_once(api):
    stories = [released() for _ in range(5)]
    seen, cursor = [], ""
    while True:
        page = api(LIST, limit=2, cursor=cursor).json()
        seen += [int(i["document"]["uri"].rsplit("/", 2)[1]) for i in page["items"]]
        cursor = page["cursor"]
        if not page["more"]:
            break
    assert seen == [story.pk for story in stories]
    # Nothing new: the same cursor comes back, with no items.
    again = api(LIST, cursor=cursor).json()
    assert again == {"items": [], "cursor": cursor, "more": False}


def test_a_kill_reaches_a_syncing_partner_as_a_new_version(api, editor, commits):
    story = DraftArticleFactory(headline_en="The new bridge")
    commits(article_publish, article=story, by=editor)
    first = api(LIST).json()
    version = first["items"][0]["version"]
    commits(article_kill, article=story, by=editor, reason="قرار قانوني")
    page = api(LIST, cursor=first["cursor"]).json()
    assert {i["event"] for i in page["items"]} == {Event.KILLED}
    assert {i["document"]["language"] for i in page["items"]} == {"ar", "en"}
    for item in page["items"]:
        document = item["document"]
        assert document["pubStatus"] == "canceled"
        assert int(document["version"]) > version
        assert set(document) <= {
            "uri",
            "standard",
            "type",
            "version",
            "versionCreated",
            "pubStatus",
            "language",
        }
    assert api(story_url(story)).json()["pubStatus"] == "canceled"


def test_a_correction_reaches_a_syncing_partner_as_a_new_version(api, editor, commits):
    story = DraftArticleFactory()
    commits(article_publish, article=story, by=editor)
    first = api(LIST).json()
    commits(correction_add, article=story, by=editor, kind="correction", text_ar="صح")
    items = api(LIST, cursor=first["cursor"]).json()["items"]
    assert [i["event"] for i in items] == [Event.CORRECTED]
    document = items[0]["document"]
    assert document["version"] == str(Article.objects.get(pk=story.pk).version)
    assert document["newsroom"]["corrections"][0]["text"] == "صح"


def test_since_gives_the_releases_from_that_time(api):
    two_days_ago = timezone.now() - timedelta(days=2)
    old = ArticleFactory(published_at=two_days_ago)
    release_record(old, Event.PUBLISHED, at=two_days_ago)
    new = released()
    since = (timezone.now() - timedelta(days=1)).isoformat()
    assert listed(api(LIST, since=since)) == [new.pk]


def test_a_cursor_we_did_not_make_is_400(api):
    response = api(LIST, cursor="not-a-cursor")
    assert response.status_code == 400
    assert "cursor" in response.json()["detail"]


def test_a_limit_out_of_range_is_refused_with_a_message(api):
    response = api(LIST, limit=1000)
    assert response.status_code == 422
    assert "limit" in response.content.decode()


def test_the_list_filters_by_section_tag_source_and_language(api, partner):
    sport = SectionFactory(slug="sport")
    in_sport = released(section=sport)
    tagged = ArticleFactory()
    tagged.tags.add("الطقس")
    released(tagged)
    credited = ArticleFactory()
    source = SourceFactory(slug="gulf-wire")
    AttributionFactory(article=credited, source=source)
    partner.rights_sources.add(source)
    released(credited)
    english = released(headline_en="In English")
    assert listed(api(LIST, section="sport")) == [in_sport.pk]
    assert listed(api(LIST, tag=tagged.tags.get().slug)) == [tagged.pk]
    assert listed(api(LIST, source="gulf-wire")) == [credited.pk]
    assert listed(api(LIST, language="en")) == [english.pk]


# ------------------------------------------------------------------ HTTP


def test_the_same_document_again_is_304(api):
    story = released()
    first = api(story_url(story))
    etag = first["ETag"]
    again = api(story_url(story), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    listing = api(LIST)
    assert api(LIST, headers={"If-None-Match": listing["ETag"]}).status_code == 304


def test_answers_are_private_and_vary_by_key(api):
    response = api(story_url(released()))
    assert "private" in response["Cache-Control"]
    assert "Authorization" in response["Vary"]
    assert "X-Api-Key" in response["Vary"]


def test_answers_are_gzipped_when_asked(api):
    released()
    response = api(LIST, headers={"Accept-Encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(response.content))["items"]


def test_a_partner_over_its_rate_limit_gets_429(api, partner, settings):
    settings.RATE_LIMITS_ENABLED = True
    partner.rate_limit = 2
    partner.save()
    assert [api(LIST).status_code for _ in range(3)] == [200, 200, 429]
    assert int(api(LIST)["Retry-After"]) >= 1


def test_the_page_cache_never_answers_the_api(api, client, settings):
    """A partner's answer is never kept for another client."""
    settings.PAGE_CACHE = True
    story = released()
    assert api(story_url(story)).status_code == 200
    assert client.get(story_url(story)).status_code == 401


# ------------------------------------------------------------------ cost


def test_the_lists_queries_do_not_grow_with_page_size_or_story_parts(api, partner):
    """Two stories of one part each and six of three parts each: the same count."""
    for size in (1, 1, 3, 3, 3, 3):
        released(rich_story(size))
    partner.rights_sources.add(*Source.objects.all())
    api(LIST, limit=1)  # warm: the gate, routes and content types, as a worker has

    def queries(limit: int) -> int:
        cache.clear()  # documents built, not read from the cache
        with CaptureQueriesContext(connection) as captured:
            response = api(LIST, limit=limit)
        assert len(response.json()["items"]) == limit
        return len(captured)

    small = queries(2)
    assert queries(6) == small
    assert small <= 13


def test_the_story_endpoints_queries_do_not_grow_with_story_parts(api, partner):
    small, large = released(rich_story(1)), released(rich_story(5))
    partner.rights_sources.add(*Source.objects.all())
    api(story_url(small))

    def queries(story) -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            assert api(story_url(story)).status_code == 200
        return len(captured)

    assert queries(large) == queries(small)


def test_documents_are_kept_until_the_next_editorial_change(api, editor, commits):
    """A second sync reads the documents from the cache; a committed change (any,
    as for the page cache) makes them be built again, so none is stale."""
    story = DraftArticleFactory()
    commits(article_publish, article=story, by=editor)
    api(LIST)
    with CaptureQueriesContext(connection) as again:
        api(LIST)
    assert len(again) <= 4  # the key, the releases: no story read
    commits(correction_add, article=story, by=editor, kind="correction", text_ar="صح")
    document = api(story_url(story)).json()
    assert document["version"] == str(Article.objects.get(pk=story.pk).version)
    assert document["newsroom"]["corrections"][0]["text"] == "صح"


def test_a_withheld_document_is_recorded_once_not_at_every_sync(api):
    ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)
    story = released()
    Article.objects.filter(pk=story.pk).update(summary_ar=f"قال {LEGAL} إن الجسر تأخر.")
    api(LIST)
    api(LIST)
    api(story_url(story))
    assert AuditEvent.objects.filter(action="withheld").count() == 1


# ------------------------------------------------------------------ OpenAPI


def test_the_openapi_description_is_valid_and_lists_the_endpoints(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    spec = response.json()
    validate(spec)
    assert {"/api/ninjs/", "/api/ninjs/{article_id}/{language}"} <= set(spec["paths"])
    schemes = spec["components"]["securitySchemes"]
    assert {s["type"] for s in schemes.values()} == {"http", "apiKey"}


def test_a_killed_story_is_still_a_tombstone_for_a_partner_that_had_it(
    api, editor, commits
):
    story = released()
    commits(article_kill, article=story, by=editor, reason="قرار قانوني")
    assert Article.objects.get(pk=story.pk).status == Status.KILLED
    document = api(story_url(story)).json()
    assert document["pubStatus"] == "canceled"
    assert "headlines" not in document


def test_hero_pictures_come_with_renditions(api):
    story = released(ArticleFactory(hero_image=picture()))
    hero = api(story_url(story)).json()["associations"][0]
    assert hero["rel"] == "hero"
    assert len(hero["renditions"]) == 3


def test_a_release_that_commits_late_is_not_passed_by_a_cursor(partner, settings):
    """A release stamped before another but committed after it (a slow insert
    within the settle window) is still after every cursor handed out."""
    from distribution.feed import feed_page

    settings.PARTNER_API_SETTLE_SECONDS = 10
    now = timezone.now()
    first = ArticleFactory()
    release_record(first, Event.PUBLISHED, at=now - timedelta(seconds=30))
    early = feed_page(partner, base_url="https://news.example", now=now)
    assert [i.release.article_id for i in early.items] == [first.pk]
    # Stamped 4 s ago, committed only now: inside the window, so no cursor passed it.
    late = ArticleFactory()
    release_record(late, Event.PUBLISHED, at=now - timedelta(seconds=4))
    later = feed_page(
        partner,
        base_url="https://news.example",
        cursor=early.cursor,
        now=now + timedelta(seconds=10),
    )
    assert [i.release.article_id for i in later.items] == [late.pk]


# ------------------------------------------------------------------ deletion


def test_a_deleted_story_reaches_a_syncing_partner_as_a_tombstone(api, editor, commits):
    from articles.services import article_delete

    story = released()
    first = api(LIST).json()
    story_id = story.pk
    commits(article_delete, article=story, by=editor)
    items = api(LIST, cursor=first["cursor"]).json()["items"]
    assert [i["event"] for i in items] == [Event.KILLED]
    document = items[0]["document"]
    assert document["uri"].endswith(f"/api/ninjs/{story_id}/ar")
    assert document["pubStatus"] == "canceled"
    assert "headlines" not in document
    answer = api(story_url(Article(pk=story_id)))
    assert answer.status_code == 200
    assert answer.json()["pubStatus"] == "canceled"


def test_deleting_a_story_never_released_leaves_no_trace(api, editor, commits):
    from articles.services import article_delete

    draft = DraftArticleFactory()
    commits(article_delete, article=draft, by=editor)
    assert listed(api(LIST)) == []
