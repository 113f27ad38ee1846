"""The partners' content API (django-ninja): stories as ninjs 3.1 documents.

    GET /api/ninjs/                 the sync: releases after a cursor, or since a time
    GET /api/ninjs/<id>/<language>  one story's edition
    GET /api/openapi.json           this API described (OpenAPI 3.1)

A partner sends its key as `Authorization: Bearer KEY` or `X-Api-Key: KEY`; without
a live key the answer is 401 and holds no data; an inactive partner's key gets 403.
Each partner has its own rate limit (requests a minute; 429 with Retry-After).
Answers are JSON, gzip when asked, `Cache-Control: private, no-cache` with an ETag:
If-None-Match with the same ETag is answered 304.
"""

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.views.decorators.gzip import gzip_page
from ninja import Field, NinjaAPI, Query, Schema
from ninja.errors import HttpError
from ninja.errors import ValidationError as InvalidParameters
from ninja.security import APIKeyHeader, HttpBearer

from core.ids import is_row_id
from core.pagination import BadCursor
from core.ratelimit import rate_limit_wait

from .documents import documents, gone_tombstone
from .feed import PAGE_SIZE, PAGE_SIZE_MAX, feed_page, gone_release, story_release
from .keys import key_holder
from .models import Partner
from .ninjs import tombstone
from .rules import partner_may_receive

RATE_WINDOW = 60  # Partner.rate_limit counts requests a minute


def _partner(key: str) -> Partner | None:
    found = key_holder(key or "")
    if found is None:
        return None
    if not found.partner.active:
        raise HttpError(403, "This partner's access is suspended; ask the newsroom.")
    return found.partner


class BearerKey(HttpBearer):
    """Authorization: Bearer KEY"""

    def authenticate(self, request: HttpRequest, token: str) -> Partner | None:
        return _partner(token)


class HeaderKey(APIKeyHeader):
    """X-Api-Key: KEY"""

    param_name = "X-Api-Key"

    def authenticate(self, request: HttpRequest, key: str | None) -> Partner | None:
        return _partner(key or "")


api = NinjaAPI(
    title="Newsroom content API",
    version="1",
    description=(
        "Stories as IPTC ninjs 3.1 documents, one per story and edition, for the "
        "newsroom's partners. Sync with the list: follow `cursor` until `more` is "
        "false, keep the last `cursor`, and ask again later with it. A release "
        f"is listed once it is {settings.PARTNER_API_SETTLE_SECONDS} seconds old, so "
        "a change whose write commits late is never passed by a cursor. Kills and "
        "withdrawals come as new versions whose document has `pubStatus` "
        "`canceled` or `withheld` and nothing of the story."
    ),
    urls_namespace="partner-api",
    docs_url=None,  # the interactive page loads scripts from elsewhere
    auth=[BearerKey(), HeaderKey()],
)


@api.exception_handler(InvalidParameters)
def _invalid_parameters(request: HttpRequest, exc: InvalidParameters) -> HttpResponse:
    """422 naming each parameter and what is wrong with it, never the value sent:
    an answer repeating a value would be withheld when the value held a protected
    legal name, and so tell that name from any other."""
    errors = [
        {"loc": error.get("loc"), "msg": error.get("msg"), "type": error.get("type")}
        for error in exc.errors
    ]
    return api.create_response(request, {"detail": errors}, status=422)


class Problem(Schema):
    detail: str


class ListedDocument(Schema):
    release: int = Field(description="The release's number in the log.")
    event: str = Field(
        description="published, updated, corrected, unpublished or killed."
    )
    version: int = Field(description="The story's version at that release.")
    visibleAt: datetime = Field(description="When the release became visible.")
    document: dict[str, Any] = Field(
        description="The ninjs 3.1 document (a tombstone for a story taken away)."
    )


class DocumentPage(Schema):
    items: list[ListedDocument]
    cursor: str = Field(description="Pass back as `cursor` to read on.")
    more: bool = Field(description="Whether more releases follow right away.")


class Sync(Schema):
    cursor: str = Field("", description="Where the last page ended (opaque).")
    since: datetime | None = Field(
        None, description="Only releases visible at or after this time (RFC 3339)."
    )
    section: str = Field("", description="A section's slug.")
    tag: str = Field("", description="A tag's slug.")
    source: str = Field("", description="A credited source's slug.")
    language: str = Field("", description="An edition: ar or en.")
    limit: int = Field(PAGE_SIZE, ge=1, le=PAGE_SIZE_MAX)


_ERRORS = {400: Problem, 401: Problem, 403: Problem, 404: Problem, 429: Problem}


def _limited(request: HttpRequest) -> HttpResponse | None:
    """429 when the partner is over its limit this minute."""
    partner = request.auth
    wait = rate_limit_wait(
        scope="partner_api",
        key=f"partner:{partner.pk}",
        limit=(partner.rate_limit, RATE_WINDOW),
    )
    if not wait:
        return None
    response = JsonResponse(
        {"detail": f"Over this partner's limit; retry in {wait} s."}, status=429
    )
    response["Retry-After"] = str(wait)
    return response


def _problem(status: int, detail: str) -> HttpResponse:
    return JsonResponse({"detail": detail}, status=status)


def _answer(request: HttpRequest, payload: dict) -> HttpResponse:
    """The JSON answer with its ETag, private to the partner; 304 when the
    partner's copy (If-None-Match) is this one."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    response = HttpResponse(body, content_type="application/json")
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Authorization", "X-Api-Key"))
    response["ETag"] = quote_etag(hashlib.sha256(body).hexdigest()[:32])
    return (
        get_conditional_response(request, etag=response["ETag"], response=response)
        or response
    )


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


@api.get(
    "/ninjs/",
    response={200: DocumentPage, 304: None, **_ERRORS},
    url_name="ninjs-list",
    summary="Sync: the releases after a cursor",
)
@gzip_page
def ninjs_list(request: HttpRequest, sync: Query[Sync]):
    """The stories' documents in the order they were released (their
    `versionCreated`; a scheduled story's publication time), each story and
    edition once, at its present version."""
    limited = _limited(request)
    if limited:
        return limited
    since = sync.since
    if since is not None and since.tzinfo is None:
        since = since.replace(tzinfo=UTC)
    if sync.language and sync.language not in dict(settings.LANGUAGES):
        editions = ", ".join(dict(settings.LANGUAGES))
        return _problem(400, f"No edition in that language; they are {editions}.")
    try:
        page = feed_page(
            request.auth,
            base_url=_base_url(request),
            cursor=sync.cursor,
            since=since,
            limit=sync.limit,
            section=sync.section,
            tag=sync.tag,
            source=sync.source,
            language=sync.language,
        )
    except BadCursor:
        return _problem(400, "The cursor is not one this API gave; start without.")
    return _answer(
        request,
        {
            "items": [
                {
                    "release": item.release.pk,
                    "event": item.release.event,
                    "version": item.release.version,
                    "visibleAt": item.release.visible_at.isoformat(),
                    "document": item.document,
                }
                for item in page.items
            ],
            "cursor": page.cursor,
            "more": page.more,
        },
    )


@api.get(
    "/ninjs/{int:article_id}/{language}",
    response={200: dict[str, Any], 304: None, **_ERRORS},
    url_name="ninjs-story",
    summary="One story's edition",
)
@gzip_page
def ninjs_story(request: HttpRequest, article_id: int, language: str):
    """The story's document in that edition: in full while it is public, else a
    tombstone (`pubStatus` canceled or withheld). A document that would carry a
    protected person's legal name is answered as withheld."""
    limited = _limited(request)
    if limited:
        return limited
    missing = _problem(404, "No such story for this partner.")
    if language not in dict(settings.LANGUAGES) or not is_row_id(article_id):
        return missing
    release = story_release(article_id, language)
    if release is None:
        # Deleted since it was released: its tombstone, to any partner.
        gone = gone_release(article_id, language)
        if gone is None:
            return missing
        return _answer(request, gone_tombstone(gone, base_url=_base_url(request)))
    if not partner_may_receive(request.auth, release.article):
        return missing
    base_url = _base_url(request)
    document = documents([release], base_url=base_url)[release.pk]
    if document is None:
        # Withheld by the output check (and recorded there): the partner learns
        # only that the story is withheld.
        document = tombstone(release.article, language, base_url=base_url)
    return _answer(request, document)
