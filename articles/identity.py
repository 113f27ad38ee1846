"""The identity gate: the one rule that keeps protected legal names out of public view.

A protected person's legal spellings must not appear in anything a reader can see.
Text is compared as the reader meets it and in the shapes a name hides in, by folding
both the text and each spelling to a *skeleton*:

- HTML is stripped and entities decoded (``&#1605;``, ``&shy;``);
- the project's Arabic folding applies (hamza forms, ى/ي, ة/ه, tashkeel, tatweel,
  digits), then Latin accents are dropped and case is folded;
- letters from other scripts that look like Latin letters (Cyrillic ``а``, Greek
  ``ο``) become those letters, using Unicode's confusables data;
- everything that is not a letter or digit is removed: spaces, hyphens, dots,
  underscores, soft hyphens, zero-width and bidi controls. So "Mazen al-Khatib",
  "mazen-alkhatib", "Mazen_Al_Khatib" and "#MazenAlKhatib" share one skeleton.

A spelling is found when its skeleton occurs anywhere in the text's skeleton, which
also catches Arabic proclitics on the first word (ولمازن) and names inside slugs,
URLs, handles and file names. It errs on the side of the protected person: a refusal
costs an editor a minute, a leak can cost a life.
"""

import html
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import unquote

from confusable_homoglyphs.confusables import confusables_data
from django.conf import settings
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.utils.html import strip_tags
from django.utils.translation import gettext as _
from taggit.models import Tag

from arabic import normalize
from core.text import ARABIC_RE
from images.models import Image

from .body import embedded_ids, sanitize_html
from .parts import story_parts

if TYPE_CHECKING:
    from .models import Person

# A spelling shorter than this would be found inside ordinary words.
MIN_SPELLING_LETTERS = 4

_NOT_ALNUM_RE = re.compile(r"[\W_]+")
# Fields that hold sanitized HTML rather than plain text.
_HTML_FIELDS = {"body"}


@cache
def _latin_lookalikes() -> dict[int, str]:
    """Non-Latin, non-Arabic characters that Unicode lists as confusable with a
    Latin letter or digit, mapped to that letter in lower case."""
    table: dict[int, str] = {}
    for target in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789":
        for glyph in confusables_data.get(target, ()):
            char = glyph["c"]
            if len(char) == 1 and not char.isascii() and not ARABIC_RE.match(char):
                table.setdefault(ord(char), target.lower())
    return table


def skeleton(text: str, *, is_html: bool = False) -> str:
    """The folded letters and digits of `text` as a reader would see it."""
    if not text:
        return ""
    if is_html:
        text = strip_tags(sanitize_html(text))
    text = html.unescape(text)
    text = normalize(text)
    text = "".join(
        char
        for char in unicodedata.normalize("NFKD", text)
        if not unicodedata.combining(char)
    )
    text = text.translate(_latin_lookalikes()).casefold()
    return _NOT_ALNUM_RE.sub("", text)


def spelling_problem(spelling: str) -> str | None:
    """Why `spelling` cannot serve as a legal spelling to look for, if it cannot."""
    if len(skeleton(spelling)) < MIN_SPELLING_LETTERS:
        return _(
            "A legal spelling needs at least %(count)s letters; a shorter one would "
            "be found inside ordinary words."
        ) % {"count": MIN_SPELLING_LETTERS}
    return None


def _needles(spelling: str) -> list[str]:
    needle = skeleton(spelling)
    needles = [needle]
    # ل + ال is written لل: "للخطيب" holds "الخطيب" without its alef.
    if needle.startswith("ال"):
        needles.append("ل" + needle[1:])
    return needles


@dataclass(frozen=True)
class Leak:
    """A protected person's legal spelling found in one field of one row."""

    person: "Person"
    obj: models.Model
    field: str

    @property
    def label(self) -> str:
        """Where the name was found, in words an editor understands."""
        return field_label(self.obj, self.field)


class IdentityLeakError(ValidationError):
    """Refusal to make public something that holds a protected legal name.

    The message names where the name was found and never the name itself, nor whose
    it is: the message may be read by someone not entitled to know.
    """

    def __init__(self, leaks: list[Leak]):
        self.leaks = leaks
        places = list(dict.fromkeys(leak.label for leak in leaks))
        super().__init__(
            _(
                "The legal name of a protected person appears in: %(places)s. "
                "Use the public name (pseudonym) instead."
            )
            % {"places": _(", ").join(places)},
            code="identity_leak",
        )


def leak_message() -> str:
    """The error shown on a field that holds a protected legal name."""
    return _(
        "This holds the legal name of a protected person; use the public name "
        "(pseudonym) instead."
    )


class IdentityGate:
    """Every legal spelling of every protected person, ready to be looked for."""

    def __init__(self, people: Iterable["Person"]):
        self.needles: list[tuple[Person, str]] = [
            (person, needle)
            for person in people
            for spelling in person.legal_spellings
            for needle in _needles(spelling)
            if len(needle) >= MIN_SPELLING_LETTERS
        ]

    @classmethod
    def load(cls, *, pending: Iterable["Person"] = ()) -> "IdentityGate":
        """The gate for the protected people in the database, with `pending`
        (unsaved) people taking the place of their stored rows."""
        from .models import Person

        pending = list(pending)
        replaced = {person.pk for person in pending if person.pk}
        stored = Person.objects.filter(identity_protected=True).exclude(pk__in=replaced)
        return cls([*stored, *(p for p in pending if p.identity_protected)])

    def __bool__(self) -> bool:
        return bool(self.needles)

    def holds(self, person: "Person") -> bool:
        """Whether `person` is one of the people this gate looks for."""
        return any(held.pk == person.pk for held, _needle in self.needles)

    def people_in(self, text: str, *, is_html: bool = False) -> list["Person"]:
        """The protected people whose legal spellings appear in `text`."""
        if not self.needles or not text:
            return []
        folded = skeleton(text, is_html=is_html)
        found = {id(p): p for p, needle in self.needles if needle in folded}
        return list(found.values())

    def people_in_output(self, text: str) -> list["Person"]:
        """The protected people whose legal spellings appear in a rendered response
        (HTML, XML, JSON or plain text), each once: read as sent (a name in an
        attribute or a file name), with percent-escapes decoded (an Arabic name in
        an address) and as text without tags (a name split by tags)."""
        if not self.needles or not text:
            return []
        readings = dict.fromkeys([text, unquote(text), strip_tags(text)])
        found = [person for reading in readings for person in self.people_in(reading)]
        return list({id(person): person for person in found}.values())

    def leaks(self, objects: Iterable[models.Model]) -> list[Leak]:
        """Every public field of `objects` that holds a protected legal spelling."""
        leaks = []
        for obj in objects:
            for field, text in public_texts(obj):
                for person in self.people_in(
                    text, is_html=field.split("_")[0] in _HTML_FIELDS
                ):
                    leaks.append(Leak(person, obj, field))
        return leaks

    def check(self, objects: Iterable[models.Model]) -> None:
        """Raise IdentityLeakError if any public field of `objects` leaks a name."""
        leaks = self.leaks(objects)
        if leaks:
            raise IdentityLeakError(leaks)


# ------------------------------------------------------------ what the public sees


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return "\n".join(str(item) for item in value)
    if isinstance(value, models.fields.files.FieldFile):
        return value.name or ""
    return str(value)


def public_field_names(obj: models.Model) -> list[str]:
    """The attributes of `obj` that public output may show, one per language.

    Models list them in `public_fields`; translated fields expand to one attribute
    per language, since modeltranslation keeps each language in its own column.
    """
    if isinstance(obj, Tag):
        names = ("name", "slug")
    else:
        names = getattr(type(obj), "public_fields", ())
    fields = []
    for name in names:
        translated = [
            f"{name}_{code}"
            for code, _name in settings.LANGUAGES
            if hasattr(obj, f"{name}_{code}")
        ]
        fields += translated or [name]
    return fields


def public_texts(obj: models.Model) -> list[tuple[str, str]]:
    """(attribute, text) for every public field of `obj`."""
    return [
        (field, _text(getattr(obj, field, ""))) for field in public_field_names(obj)
    ]


def field_label(obj: models.Model, field: str) -> str:
    """A field's name as the admin shows it, with the row's kind for related rows."""
    try:
        name = str(obj._meta.get_field(field).verbose_name)
    except FieldDoesNotExist:  # a property such as Byline.display_name
        labels = getattr(type(obj), "public_field_labels", {})
        name = str(labels.get(field, field.replace("_", " ")))
    kind = str(obj._meta.verbose_name)
    if obj._meta.model_name == "article":
        return name
    return f"{kind}: {name}"


# ------------------------------------------------------------ a story's public rows


def story_rows(
    article,
    *,
    tags: Iterable[str] | None = None,
    changed: Iterable[models.Model] = (),
    deleted: Iterable[models.Model] = (),
) -> list[models.Model]:
    """The article and every row its public page shows, as they will be once saved.

    Rows come from the story's declared parts (articles.parts), read through the
    article's related managers, so an article fetched with
    `Article.objects.for_detail()` is read without further queries.

    `tags` (names) replaces the stored tags; `changed` rows (new or edited) replace
    their stored versions and `deleted` rows drop out, so an edit is checked before
    anything is written.
    """
    changed, deleted = list(changed), list(deleted)
    pending = {(type(row), row.pk) for row in changed + deleted if row.pk}
    rows: list[models.Model] = [article]
    if article.section_id:
        rows.append(article.section)
    rows += story_images(article)
    rows += _tags(article, tags)
    for part in story_parts():
        related = [r for r in part.rows(article) if (type(r), r.pk) not in pending]
        related += [row for row in changed if isinstance(row, part.model)]
        for row in related:
            rows.append(row)
            for name in part.public_related:
                if getattr(row, row._meta.get_field(name).attname) is not None:
                    rows.append(getattr(row, name))
    return rows


def story_images(article) -> list[models.Model]:
    """The library images a story shows (its hero, then those placed in the body):
    their titles, captions, alt texts, credits and file names are public."""
    images = [article.hero_image] if article.hero_image_id else []
    placed = {
        pk
        for code, _name in settings.LANGUAGES
        for pk in embedded_ids(getattr(article, f"body_{code}", "") or "", "image")
    } - {article.hero_image_id}
    if placed:
        images += list(Image.objects.filter(pk__in=placed).order_by("pk"))
    return images


def _tags(article, names: Iterable[str] | None) -> list[Tag]:
    if names is None:
        return list(article.tags.all()) if article.pk else []
    names = list(dict.fromkeys(names))
    stored = {tag.name: tag for tag in Tag.objects.filter(name__in=names)}
    return [stored.get(name) or Tag(name=name) for name in names]


# ------------------------------------------------------------ everything public


@dataclass
class Exposure:
    """Leaks found in one public story, or (article None) in a row every page shows."""

    article: models.Model | None
    leaks: list[Leak]


def public_exposures(gate: IdentityGate) -> list[Exposure]:
    """Where `gate`'s legal spellings appear in what the public can see or will see.

    Covers every published story, scheduled ones included, with the rows its page
    shows, and the rows of models marked `always_public` (the section menu, source
    pages). Reads stories in chunks with their related rows prefetched.
    """
    from django.apps import apps

    from .models import Article, Status

    if not gate:
        return []
    exposures = []
    stories = Article.objects.filter(status=Status.PUBLISHED).for_detail()
    for article in stories.iterator(chunk_size=500):
        leaks = gate.leaks(story_rows(article))
        if leaks:
            exposures.append(Exposure(article, leaks))
    for model in apps.get_models():
        if getattr(model, "always_public", False):
            leaks = gate.leaks(model._default_manager.all())
            if leaks:
                exposures.append(Exposure(None, leaks))
    return exposures
