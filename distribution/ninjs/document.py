"""A story as an IPTC ninjs 3.1 document ("News in JSON"), one per story and edition.

The document is built only from what the story's public page shows: the story's
public fields, its section, tags and hero image, the images its body places, and its
declared parts (`articles.parts.story_parts(syndicated=True)`), read through the same
helpers the page uses (`publishing.rendering.body_items`, `Article.description`,
`Person.display_name`, `images.renditions`). So a partner receives nothing a reader
could not, and the identity gate has read every field of it.

Where ninjs has a place for something, it goes there: bylines in `by` (ninjs 3.1 has
no list of bylines), people named by their public name in `people` (`rel`: subject,
quoted, mentioned), the section and tags in `subjects`, the credited outlets in
`infoSources` (`role`: original, republished, via, cited), the body's social posts
and pictures in `associations` (a post as structured data, never a platform's
script; a picture with our renditions and their sizes), referenced from the body by
`<figure data-association="NAME">`.

What ninjs has no place for (attribution details such as the original's date and
whether its credit and link are required, corrections, Hijri dates) goes under one
extension property, `newsroom`. The ninjs 3.1 schema admits no property it does not
define (`unevaluatedProperties: false`); IPTC's guidelines extend it by a schema of
one's own that includes theirs, which is `schemas/ninjs-newsroom-1.json` (its `$id`
is EXTENSION_SCHEMA). A document names the schema it is valid against in
`standard.schema`: with `extension=False` it is plain ninjs 3.1.

Every document is read for protected legal names as a public page is, after it is
built: one that holds a legal spelling is withheld (DocumentWithheld is raised, and
the audit trail and error log record it by address and pseudonym, never the name).
"""

import json
from datetime import date, datetime
from urllib.parse import urljoin

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import strip_tags
from django.utils.translation import gettext, pgettext

from arabic.dates import format_hijri, to_hijri
from articles.body import embedded_ids
from articles.models import Article, Status
from articles.parts import story_parts
from core.text import safe_url
from identity.cache import current_gate, people_in_sent
from identity.models import Person
from images.models import Image
from images.renditions import images_with_renditions
from publishing.output_check import record_withheld
from publishing.rendering import BodyItem, body_items, direction, field_language

from .associations import picture, post, printed_together
from .common import compact, when
from .rights import rights

NINJS_VERSION = "3.1"
NINJS_SCHEMA = "http://www.iptc.org/std/ninjs/ninjs-schema_3.1.json#"
# Our extension of it (distribution/schemas/ninjs-newsroom-1.json).
EXTENSION_SCHEMA = "urn:newsroom:ninjs-extension:1"
EXTENSION = "newsroom"


class DocumentWithheld(Exception):
    """A story's document held a protected person's legal name and was not made:
    the story must be mended (as `audit_identities` reports for pages)."""

    def __init__(self, article: Article, people: list[Person]):
        self.article = article
        self.people = people
        names = ", ".join(person.display_name for person in people)
        super().__init__(
            f"Story #{article.pk} withheld: its document holds the legal name of "
            f"the protected person {names}."
        )


def document_uri(article: Article, language: str, *, base_url: str) -> str:
    """The document's identifier: one per story and edition, kept across versions
    (its slug may change; its number and language do not)."""
    return f"{base_url.rstrip('/')}/api/ninjs/{article.pk}/{language}"


def ninjs_document(
    article: Article,
    language: str,
    *,
    base_url: str,
    extension: bool = True,
    images: dict[int, Image] | None = None,
) -> dict:
    """The story in `language` ("ar" or "en") as a ninjs 3.1 document, with
    addresses under `base_url` ("https://example.com").

    Load `article` with `Article.objects.for_detail()`: the document then costs a
    fixed number of queries (two more when the body places pictures), however many
    tags, people, posts and pictures the story has; a list of documents passes the
    pictures of all its bodies as `images` (`body_images`), read once. Raises
    DocumentWithheld when the document would carry a protected legal name.
    """
    base_url = base_url.rstrip("/")
    with translation.override(language):
        builder = _Builder(article, language, base_url, images)
        document = builder.document(extension)
    _check_identity(article, document)
    return document


def body_images(articles: list[Article]) -> dict[int, Image]:
    """The pictures every edition of these stories' bodies places, with their
    renditions: two queries for a whole list of documents."""
    placed = {
        pk
        for article in articles
        for code, _name in settings.LANGUAGES
        for pk in embedded_ids(getattr(article, f"body_{code}", "") or "", "image")
    }
    return images_with_renditions(placed)


def _check_identity(article: Article, document: dict) -> None:
    """The public pages' output check, on the document as it is sent."""
    gate = current_gate()
    if not gate:
        return
    body = json.dumps(document, ensure_ascii=False)
    people = people_in_sent(gate, body, printed_together(document))
    if not people:
        return
    record_withheld(document["uri"], people, gate)
    raise DocumentWithheld(article, people)


def _hijri(value: datetime | None, language: str) -> dict | None:
    """The Umm al-Qura date of the day `value` falls on here, as data and as the
    page prints it."""
    if value is None:
        return None
    hijri = to_hijri(timezone.localtime(value).date())
    if hijri is None:
        return None
    return {
        "date": f"{hijri.year:04d}-{hijri.month:02d}-{hijri.day:02d}",
        "text": format_hijri(hijri, language=language),
    }


class _Builder:
    """One document: the story's rows read once, each property built from them."""

    def __init__(
        self,
        article: Article,
        language: str,
        base_url: str,
        images: dict[int, Image] | None = None,
    ):
        self.article = article
        self.images = images
        self.language = language
        self.base_url = base_url
        self.uri = document_uri(article, language, base_url=base_url)
        self.rows = {
            part.relation: part.rows(article) for part in story_parts(syndicated=True)
        }
        self.attributions = self.rows.get("attributions", [])

    def absolute(self, url: str) -> str:
        return urljoin(self.base_url + "/", url)

    def document(self, extension: bool) -> dict:
        article = self.article
        page_url = self.absolute(article.get_absolute_url())
        body, associations = self.body_and_associations()
        document = compact(
            {
                "uri": self.uri,
                "standard": {
                    "name": "ninjs",
                    "version": NINJS_VERSION,
                    "schema": EXTENSION_SCHEMA if extension else NINJS_SCHEMA,
                },
                "type": "text",
                "representationType": "full",
                "version": str(article.version),
                "firstCreated": when(article.published_at),
                "versionCreated": when(article.updated_at),
                "contentCreated": when(article.created_at),
                "embargoedUntil": when(article.embargo_until),
                "pubStatus": self.pub_status(),
                "urgency": 1 if article.is_breaking else None,
                "language": article.shown_language,
                "slugline": article.slug,
                "headlines": self.headlines(),
                "descriptions": self.descriptions(),
                "bodies": [body] if body["value"] else [],
                "by": self.by(),
                "people": self.people(),
                "subjects": self.subjects(),
                "infoSources": self.info_sources(),
                **rights(self.article, self.attributions),
                "altIds": self.alt_ids(page_url),
                "renditions": [
                    {"name": "web", "href": page_url, "contentType": "text/html"}
                ],
                "associations": associations,
            }
        )
        if extension:
            document[EXTENSION] = self.extension()
        return document

    def pub_status(self) -> str:
        if self.article.status == Status.KILLED:
            return "canceled"
        return "usable" if self.article.is_public else "withheld"

    def headlines(self) -> list[dict]:
        article = self.article
        return [
            {"role": role, "contentType": "text/plain", "value": value}
            for role, value in (("main", article.headline), ("kicker", article.kicker))
            if value
        ]

    def descriptions(self) -> list[dict]:
        description = self.article.description
        if not description:
            return []
        return [{"role": "summary", "contentType": "text/plain", "value": description}]

    def bylines(self) -> list[str]:
        return [b.display_name for b in self.rows.get("bylines", []) if b.display_name]

    def by(self) -> str:
        names = self.bylines()
        if len(names) < 2:
            return "".join(names)
        return (
            pgettext("list", ", ").join(names[:-1])
            + pgettext("list", " and ")
            + names[-1]
        )

    def people(self) -> list[dict]:
        # By their public name only, whatever name the story uses: the document
        # is a record others keep, and a pseudonym is the only name it may hold.
        return [
            {
                "name": link.person.display_name,
                "rel": link.role,
                "uri": self.absolute(link.person.get_absolute_url()),
            }
            for link in self.rows.get("people_named", [])
        ]

    def subjects(self) -> list[dict]:
        subjects = []
        section = self.article.section
        if section is not None:
            subjects.append(
                {
                    "name": section.name,
                    "rel": "section",
                    "uri": self.absolute(section.get_absolute_url()),
                    "literal": section.slug,
                }
            )
        for tag in self.article.tags.all():
            url = reverse("articles:tag", kwargs={"slug": tag.slug})
            subjects.append(
                {
                    "name": tag.name,
                    "rel": "tag",
                    "uri": self.absolute(url),
                    "literal": tag.slug,
                }
            )
        return subjects

    def info_sources(self) -> list[dict]:
        publisher = {
            "name": gettext("Newsroom"),
            "role": "publisher",
            "uri": self.absolute(reverse("articles:home")),
        }
        return [
            publisher,
            *[
                {
                    "name": a.source.name,
                    "role": a.role,
                    "uri": self.absolute(a.source.get_absolute_url()),
                }
                for a in self.attributions
            ],
        ]

    def alt_ids(self, page_url: str) -> list[dict]:
        ids = [{"role": "id", "value": str(self.article.pk)}]
        ids.append({"role": "web", "value": page_url})
        canonical = next(
            (
                safe_url(a.original_url)
                for a in self.attributions
                if a.is_canonical and safe_url(a.original_url)
            ),
            "",
        )
        if canonical:
            ids.append({"role": "canonical", "value": canonical})
        return ids

    def body_and_associations(self) -> tuple[dict, list[dict]]:
        """The sanitized body as the page shows it, each post and picture it places
        standing as a reference to its association; the hero picture first."""
        article = self.article
        rtl = direction(field_language(article, "body")) == "rtl"
        placed = embedded_ids(article.body, "image")
        if self.images is None:
            images = images_with_renditions(placed)
        else:
            images = {pk: self.images[pk] for pk in placed if pk in self.images}
        posts = self.rows.get("social_posts", [])
        items = body_items(article.body, posts, images=images, rtl=rtl)
        associations = []
        if article.hero_image is not None:
            caption = article.hero_caption or article.hero_image.caption
            associations.append(
                picture(article.hero_image, "hero", caption, self.absolute)
            )
        blocks, text = [], []
        for item in items:
            if item.html is not None:
                blocks.append(str(item.html))
                text.append(strip_tags(item.html))
                continue
            association = self.embedded(item)
            associations.append(association)
            blocks.append(f'<figure data-association="{association["name"]}"></figure>')
        plain = " ".join(text)
        body = {
            "role": "main",
            "contentType": "text/html",
            "value": "\n".join(blocks),
            "charCount": len(plain),
            "wordCount": len(plain.split()),
        }
        return body, associations

    def embedded(self, item: BodyItem) -> dict:
        if item.post is not None:
            return post(item.post, self.uri)
        image = item.image
        return picture(image, f"image-{image.pk}", image.caption, self.absolute)

    def extension(self) -> dict:
        """What ninjs has no place for (schemas/ninjs-newsroom-1.json)."""
        article = self.article
        return compact(
            {
                "bylines": self.bylines(),
                "breaking": article.is_breaking,
                "attributions": [
                    compact(
                        {
                            "source": a.source.name,
                            "sourceUri": self.absolute(a.source.get_absolute_url()),
                            "role": a.role,
                            "credit": a.source.credit_as or a.source.name,
                            "linkRequired": a.source.link_required,
                            "originalUrl": safe_url(a.original_url),
                            "originalPublishedOn": _day(a.original_published_on),
                            "canonical": a.is_canonical,
                        }
                    )
                    for a in self.attributions
                ],
                "hijriDates": compact(
                    {
                        "firstCreated": _hijri(article.published_at, self.language),
                        "versionCreated": _hijri(article.updated_at, self.language),
                    }
                ),
                "corrections": [
                    {
                        "kind": c.kind,
                        "label": str(c.get_kind_display()),
                        "text": c.text,
                        "created": when(c.created_at),
                    }
                    for c in self.rows.get("corrections", [])
                    if c.text
                ],
            }
        )


def _day(value: date | None) -> str | None:
    return value.isoformat() if value else None
