"""The stored-XSS corpus planted in every editor-writable field, through the services
(and the admin forms and the importer in test_xss.py).

Every planted copy of a payload calls `window.__xss(n)` with n = payload * 100 +
field, so a hit names both. Short fields take a few payloads each, spread over as
many stories (sections, sources, people) as it takes for every payload that fits a
field to be planted in it.
"""

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile

from articles.models import Article, ArticlePerson, Byline, Section, SocialPost
from articles.services import (
    StoryEdit,
    article_publish,
    article_save,
    correction_add,
    image_save,
    section_save,
)
from identity.models import Person
from identity.services import person_save
from images.models import Image
from sources.models import Attribution, SocialAccount, Source
from sources.services import source_save
from tests.factories import picture_bytes

CORPUS = Path(__file__).with_name("xss_payloads.txt")
TEXT_LIMIT = 1500  # a TextField's chunk: a few dozen payloads per story

# Every field an editor writes that a page shows, with its length limit (None: text).
FIELDS: dict[str, int | None] = {
    "article.headline_ar": 300,
    "article.headline_en": 300,
    "article.kicker_ar": 120,
    "article.kicker_en": 120,
    "article.summary_ar": None,
    "article.summary_en": None,
    "article.body_ar": None,
    "article.body_en": None,
    "article.hero_caption_ar": 300,
    "article.hero_caption_en": 300,
    "image.title_ar": 200,
    "image.title_en": 200,
    "image.caption_ar": 300,
    "image.caption_en": 300,
    "image.alt_text_ar": 300,
    "image.alt_text_en": 300,
    "image.credit": 200,
    "image.source": 200,
    "tag.name": 100,
    "section.name_ar": 100,
    "section.name_en": 100,
    "section.description_ar": None,
    "section.description_en": None,
    "source.name_ar": 200,
    "source.name_en": 200,
    "source.aliases": None,
    "source.country": 100,
    "source.terms": None,
    "account.handle": 100,
    "person.name": 200,
    "person.description_ar": 300,
    "person.description_en": 300,
    "person.aliases": None,
    "appearance.name_used": 200,
    "byline.name": 200,
    "post.author_name": 200,
    "post.handle": 100,
    "post.text": None,
    "post.hashtags": None,
    "post.links": None,
    "post.media_urls": None,
    "post.url": 200,
    "correction.text_ar": None,
    "correction.text_en": None,
    "attribution.original_url": 500,
}
FIELD_INDEX = {name: i for i, name in enumerate(FIELDS)}
# Fields holding one address each: a story carries one payload in them per row.
SINGLE = {"post.url", "attribution.original_url"}
LISTS = {"post.hashtags", "post.links", "post.media_urls"}


def payloads() -> list[str]:
    # split("\n"), not splitlines(): some payloads carry U+2028 on purpose.
    lines = CORPUS.read_text(encoding="utf-8").split("\n")
    return [line for line in lines if line.strip() and not line.startswith("#")]


def planted(payload: int, field_name: str) -> str:
    return payloads_cached()[payload].format(n=payload * 100 + FIELD_INDEX[field_name])


def decode(n: int) -> str:
    return f"payload {n // 100 + 1} in {list(FIELDS)[n % 100]}"


def pack(items: list[str], limit: int) -> list[list[str]]:
    """Greedy chunks of items whose joined length stays within `limit`."""
    chunks: list[list[str]] = [[]]
    for item in items:
        if len(item) > limit:
            continue
        if len(" ".join([*chunks[-1], item])) > limit:
            chunks.append([])
        chunks[-1].append(item)
    return [chunk for chunk in chunks if chunk]


@functools.cache
def payloads_cached() -> tuple[str, ...]:
    return tuple(payloads())


@dataclass
class Plan:
    """Which payloads each story (section, source, person) carries in each field."""

    count: int
    chunks: dict[str, list[list[str]]]
    pairs: int = 0
    refused: list[str] = field(default_factory=list)

    def text(self, name: str, k: int, default: str = "") -> str:
        chunks = self.chunks[name]
        return " ".join(chunks[k]) if k < len(chunks) else default

    def items(self, name: str, k: int) -> list[str]:
        chunks = self.chunks[name]
        return chunks[k] if k < len(chunks) else []


def plan() -> Plan:
    corpus = payloads()
    chunks = {}
    for name, limit in FIELDS.items():
        items = [planted(i, name) for i in range(len(corpus))]
        if name == "tag.name" or name in SINGLE:
            chunks[name] = [[item] for item in items if len(item) <= limit]
        else:
            chunks[name] = pack(items, limit or TEXT_LIMIT)
    grouped = [n for n in FIELDS if n not in SINGLE and n != "tag.name"]
    count = max(len(chunks[n]) for n in grouped)
    # Tags and addresses ride along: several per story.
    per_story = math.ceil(len(corpus) / count)
    for name in ("tag.name", *SINGLE):
        singles = [c[0] for c in chunks[name]]
        chunks[name] = [singles[k::count] for k in range(count)]
    result = Plan(count=count, chunks=chunks)
    result.pairs = sum(len(c) for chunk in chunks.values() for c in chunk)
    assert per_story >= 1
    return result


def plant_story(plan_: Plan, k: int, *, by) -> Article:
    """Story k with its section, source, person and every related row."""
    t = plan_.text
    section = section_save(
        section=Section(
            name_ar=t("section.name_ar", k, f"قسم {k}"),
            name_en=t("section.name_en", k, f"Section {k}"),
            description_ar=t("section.description_ar", k),
            description_en=t("section.description_en", k),
        ),
        by=by,
    )
    source = Source(
        name_ar=t("source.name_ar", k, f"صحيفة {k}"),
        name_en=t("source.name_en", k, f"Paper {k}"),
        aliases=t("source.aliases", k),
        country=t("source.country", k),
        terms=t("source.terms", k),
    )
    account = SocialAccount(platform="x", handle=t("account.handle", k, f"acct{k}"))
    source_save(source=source, by=by, changed=[account])
    person = person_save(
        person=Person(
            name=t("person.name", k, f"شخص {k}"),
            description_ar=t("person.description_ar", k),
            description_en=t("person.description_en", k),
            aliases=t("person.aliases", k),
        ),
        by=by,
    )
    image = image_save(
        image=Image(
            file=ContentFile(
                picture_bytes(size=(40 + k, 30), color=(k % 256, 90, 160)),
                name=f"hero{k}.jpg",
            ),
            title_ar=t("image.title_ar", k, f"صورة {k}"),
            title_en=t("image.title_en", k, f"Picture {k}"),
            caption_ar=t("image.caption_ar", k),
            caption_en=t("image.caption_en", k),
            alt_text_ar=t("image.alt_text_ar", k, "صورة"),
            alt_text_en=t("image.alt_text_en", k, "Picture"),
            credit=t("image.credit", k),
            source=t("image.source", k),
        ),
        by=by,
    )
    article = Article(
        headline_ar=t("article.headline_ar", k, f"خبر {k}"),
        headline_en=t("article.headline_en", k, f"Story {k}"),
        kicker_ar=t("article.kicker_ar", k),
        kicker_en=t("article.kicker_en", k),
        summary_ar=t("article.summary_ar", k),
        summary_en=t("article.summary_en", k),
        body_ar=t("article.body_ar", k, "<p>نص</p>"),
        body_en=t("article.body_en", k, "<p>Text</p>"),
        hero_image=image,
        hero_caption_ar=t("article.hero_caption_ar", k),
        hero_caption_en=t("article.hero_caption_en", k),
        section=section,
    )
    posts = [
        SocialPost(
            platform="x",
            author_name=t("post.author_name", k),
            handle=t("post.handle", k),
            text=t("post.text", k, "نص"),
            hashtags=plan_.items("post.hashtags", k),
            links=plan_.items("post.links", k),
            media_urls=plan_.items("post.media_urls", k),
        )
    ]
    posts += [
        SocialPost(platform="x", url=url, text=f"post {i}")
        for i, url in enumerate(plan_.items("post.url", k))
    ]
    attributions = [
        Attribution(source=source, role=role, original_url=url)
        for role, url in zip(
            [r for r, _label in Attribution.Role.choices],
            plan_.items("attribution.original_url", k),
            strict=False,
        )
    ]
    plan_.refused += [
        url for url in plan_.items("attribution.original_url", k)[len(attributions) :]
    ]
    edit = StoryEdit(
        article=article,
        tags=plan_.items("tag.name", k),
        changed=[
            Byline(name=t("byline.name", k, "كاتب")),
            ArticlePerson(
                person=person, name_used=t("appearance.name_used", k), position=0
            ),
            *posts,
            *attributions,
        ],
    )
    article_save(edit=edit, by=by)
    article_publish(article=article, by=by)
    for language in ("ar", "en"):
        text = t(f"correction.text_{language}", k)
        if text:
            correction_add(
                article=article, by=by, kind="correction", **{f"text_{language}": text}
            )
    return article


def plant_all(*, by) -> Plan:
    """Plant the whole corpus; a story refused whole is recorded, not hidden."""
    result = plan()
    for k in range(result.count):
        try:
            plant_story(result, k, by=by)
        except ValidationError as refusal:
            result.refused.append(f"story {k}: {refusal}")
    return result
