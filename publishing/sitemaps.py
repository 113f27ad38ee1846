"""Sitemaps of the public site for search engines: stories, sections, tags and
people in every edition that has them, and a Google News sitemap of the last two
days, and the source pages."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.db.models import Max, Q
from django.urls import reverse
from django.utils import timezone, translation
from taggit.models import Tag

from articles.models import Article, Section
from identity.models import Person
from sources.models import Source

LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]
NEWS_WINDOW = timedelta(hours=48)
# Conditions on stories that stay news past the window, which apps add from their
# AppConfig.ready() with `still_news()` (a live coverage, while it runs).
_STILL_NEWS: list[Callable[[], Q]] = []


def still_news(condition: Callable[[], Q]) -> None:
    """Keep in the news sitemap, however old, the stories `condition()` selects."""
    if condition not in _STILL_NEWS:
        _STILL_NEWS.append(condition)


def has_headline(article: Article) -> list[str]:
    """The editions the story is written for: those it has a headline in."""
    return [code for code in LANGUAGE_CODES if getattr(article, f"headline_{code}")]


def public_stories():
    """Published stories with just what a sitemap entry needs."""
    return Article.objects.published().only(
        "pk",
        "updated_at",
        "published_at",
        *[f"slug_{code}" for code in LANGUAGE_CODES],
        *[f"headline_{code}" for code in LANGUAGE_CODES],
    )


class EditionSitemap(Sitemap):
    """Each object once per edition it is public in, with hreflang alternates."""

    i18n = True
    alternates = True


class EditionEntries(Sequence):
    """(story, language) for each edition a story is written for, edition by
    edition, newest first: counted and read a page at a time. Django's own list of
    these pairs read every story of the archive to serve any one page."""

    def __init__(self):
        self.editions = [
            (code, public_stories().available_in(code).latest_first())
            for code in LANGUAGE_CODES
        ]

    @cached_property
    def counts(self) -> list[int]:
        return [stories.count() for _code, stories in self.editions]

    def __len__(self) -> int:
        return sum(self.counts)

    def __getitem__(self, index):
        if not isinstance(index, slice):
            return self[index : index + 1][0]
        start, stop, _step = index.indices(len(self))
        entries, offset = [], 0
        for (code, stories), count in zip(self.editions, self.counts, strict=True):
            low, high = max(start - offset, 0), min(stop - offset, count)
            if low < high:
                entries += [(story, code) for story in stories[low:high]]
            offset += count
        return entries


class StorySitemap(EditionSitemap):
    # A story's page falls back to another language in any edition, but only the
    # editions it was written for are listed, so no translation is claimed that
    # does not exist.
    changefreq = "daily"
    # Pages of this many addresses (each with its alternates) stay a few MB; at
    # Django's 50,000 a 100k archive's page weighed 40 MB.
    limit = 10_000

    def items(self):
        return public_stories().latest_first()

    def _items(self):
        return EditionEntries()

    def get_languages_for_item(self, item: Article) -> list[str]:
        return has_headline(item)

    def lastmod(self, item: Article) -> datetime:
        return item.updated_at

    def get_latest_lastmod(self) -> datetime | None:
        return public_stories().aggregate(latest=Max("updated_at"))["latest"]


class SectionSitemap(EditionSitemap):
    changefreq = "hourly"

    def items(self):
        return Section.objects.only("pk", "slug")


class ListedSitemap(EditionSitemap):
    """Lists that exist only in the editions where a published story uses them
    (tag and person pages answer 404 otherwise)."""

    changefreq = "daily"
    # The path from a story to the listed object's primary key.
    key = ""

    def used(self) -> dict[object, list[str]]:
        """Each used object's key, with the editions its list page exists in."""
        editions: dict[object, list[str]] = {}
        for code in LANGUAGE_CODES:
            listed = Article.objects.published().available_in(code).order_by()
            for pk in listed.values_list(self.key, flat=True).distinct():
                if pk is not None:
                    editions.setdefault(pk, []).append(code)
        return editions

    def objects(self, pks: list):
        raise NotImplementedError

    def items(self) -> list:
        # The editions ride on each object: one sitemap instance serves every
        # request, so nothing request-specific may be kept on it.
        editions = self.used()
        objects = list(self.objects(list(editions)))
        for obj in objects:
            obj.sitemap_editions = editions[obj.pk]
        return objects

    def get_languages_for_item(self, item) -> list[str]:
        return item.sitemap_editions


class TagSitemap(ListedSitemap):
    key = "tags"

    def objects(self, pks: list):
        return Tag.objects.filter(pk__in=pks).order_by("name")

    def location(self, item: Tag) -> str:
        return reverse("articles:tag", kwargs={"slug": item.slug})


class PersonSitemap(ListedSitemap):
    key = "people_named__person"

    def objects(self, pks: list):
        return Person.objects.filter(pk__in=pks).only("pk", "slug")


@dataclass(frozen=True)
class NewsEntry:
    """One edition of a story, as Google News lists it."""

    article: Article
    language: str

    @property
    def title(self) -> str:
        return getattr(self.article, f"headline_{self.language}")

    @property
    def published_at(self) -> datetime:
        return self.article.published_at


class NewsSitemap(Sitemap):
    """Stories published in the last 48 hours (and those apps keep as news, such
    as a running live coverage), each edition on its own (Google News reads only
    those)."""

    def items(self) -> list[NewsEntry]:
        since = timezone.now() - NEWS_WINDOW
        news = Q(published_at__gte=since)
        for condition in _STILL_NEWS:
            news |= condition()
        recent = public_stories().filter(news).latest_first()
        return [
            NewsEntry(article, code)
            for article in recent
            for code in has_headline(article)
        ]

    def location(self, item: NewsEntry) -> str:
        with translation.override(item.language):
            return item.article.get_absolute_url()

    def lastmod(self, item: NewsEntry) -> datetime:
        return item.article.updated_at


class SourceSitemap(EditionSitemap):
    changefreq = "daily"

    def items(self):
        return Source.objects.only("pk", "slug")
