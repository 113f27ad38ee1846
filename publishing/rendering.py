"""Presentation helpers for public pages: body blocks, social cards, languages, URLs.

Views call these so templates only display. Everything here treats stored text as
untrusted: the body is sanitized again at render time and social text is escaped
before links are added.
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from articles.body import embed_reference, isolate_ltr_runs, sanitize_html, split_blocks
from articles.models import Correction, SocialPost
from core.text import social_tokens, spaced_tokens

EXTERNAL_REL = "nofollow noopener noreferrer"


@dataclass(frozen=True)
class BodyItem:
    """One piece of the article body: a sanitized block of HTML, a social post or an
    image from the library."""

    html: SafeString | None = None
    post: SocialPost | None = None
    image: Any = None


def body_items(
    body: str,
    posts: list[SocialPost],
    *,
    images: dict[int, Any] | None = None,
    rtl: bool = False,
) -> list[BodyItem]:
    """The body's blocks, with each post and image where the editor placed it.

    Posts the body does not place follow it, so a post added to a story is never
    lost; a place whose post or image no longer exists is left out. In right-to-left
    text, Latin and numeric runs are isolated with <bdi>.
    """
    blocks = _clean_blocks(body or "", rtl)
    posts_by_id = {post.pk: post for post in posts}
    images = images or {}
    items: list[BodyItem] = []
    for block in blocks:
        reference = embed_reference(block)
        if reference is None:
            if not block.startswith("<figure"):  # an empty figure places nothing
                items.append(
                    BodyItem(html=mark_safe(block))
                )  # _clean_blocks sanitized it
        elif reference[0] == "post" and reference[1] in posts_by_id:
            items.append(BodyItem(post=posts_by_id.pop(reference[1])))
        elif reference[0] == "image" and reference[1] in images:
            items.append(BodyItem(image=images[reference[1]]))
    items += [BodyItem(post=post) for post in posts_by_id.values()]
    return items


@lru_cache(maxsize=512)
def _clean_blocks(body: str, rtl: bool) -> tuple[str, ...]:
    """The body's sanitized blocks, remembered by the stored text itself.

    Re-sanitized at render as well as on save: rows written with update() or raw
    SQL never passed through Article.save(). Keyed by the text, not the story, so
    any new text is sanitized afresh, while a story read by many readers is cleaned
    once per worker instead of on every request.
    """
    clean = sanitize_html(body)
    return tuple(split_blocks(isolate_ltr_runs(clean) if rtl else clean))


def social_text_html(text: str, media: Iterable[str] = ()) -> SafeString:
    """Plain post text as escaped HTML: line breaks kept, links live, Latin isolated.

    The text is read as tokens (core.text.social_tokens), and a link, handle or
    hashtag running into its neighbour is set apart by a space. A media address
    the card lists under the text (`media`, the post's media URLs) is left out of
    the text, so a picture is offered once.
    """
    listed = {_media_key(url) for url in media}
    parts: list[str] = []
    for kind, piece in spaced_tokens(social_tokens(text or "")):
        if kind == "text":
            parts.append(escape(piece))
        elif kind == "media" and _media_key(piece) in listed:
            continue
        elif kind in ("url", "media"):
            address = piece.split("://", 1)[-1]
            link = escape(piece if kind == "url" else f"https://{address}")
            anchor = f'<a href="{link}" rel="{EXTERNAL_REL}">{escape(piece)}</a>'
            parts.append(f"<bdi>{anchor}</bdi>")
        else:
            parts.append(f'<bdi class="{kind}">{escape(piece)}</bdi>')
    html = "".join(parts).strip().replace("\r\n", "\n").replace("\n", "<br>")
    return mark_safe(html)  # every piece of the text was escaped above


def _media_key(url: str) -> str:
    """A media address without its scheme, in lower case: "pic.x.com/abc"."""
    return url.split("://", 1)[-1].lower()


def field_language(obj: models.Model, field: str) -> str:
    """The language of the value `obj.<field>` shows in the active edition.

    modeltranslation falls back per field (ar → en), so a story with an English
    headline may still show an Arabic body; the page marks each part's real language.
    """
    active = get_language() or settings.LANGUAGE_CODE
    if getattr(obj, f"{field}_{active}", ""):
        return active
    for code in settings.MODELTRANSLATION_FALLBACK_LANGUAGES["default"]:
        if getattr(obj, f"{field}_{code}", ""):
            return code
    return active


def direction(language: str) -> str:
    return "rtl" if language == "ar" else "ltr"


@dataclass(frozen=True)
class CorrectionItem:
    """A correction as the page prints it: kind, date, and text in one language."""

    kind: str
    text: str
    language: str
    created_at: datetime

    @property
    def direction(self) -> str:
        return direction(self.language)


def correction_items(corrections: Iterable[Correction]) -> list[CorrectionItem]:
    """Corrections in the active edition's language, or in the other one when that
    is all they were written in."""
    return [
        CorrectionItem(
            kind=str(correction.get_kind_display()),
            text=correction.text,
            language=field_language(correction, "text"),
            created_at=correction.created_at,
        )
        for correction in corrections
    ]


def json_ld(data: dict[str, Any]) -> SafeString:
    """JSON for a <script type="application/ld+json"> element, safe to inline."""
    text = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False)
    # Same escapes as django.utils.html.json_script: the text cannot close the element.
    text = text.replace("<", "\\u003C").replace(">", "\\u003E").replace("&", "\\u0026")
    return mark_safe(text)
