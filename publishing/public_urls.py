"""Every address a reader can open, in every edition.

This is the one list of the public site for whatever needs to walk it: the identity
audit today. Feeds and sitemaps are listed, the searches a reader would make for
each protected person's public names, and every share link still open; API
addresses are added here too, in `_urls_in()`, so every walker sees them at once.
"""

from collections.abc import Iterable, Iterator
from math import ceil
from urllib.parse import urlencode

from django.conf import settings
from django.db.models import Count, Model
from django.urls import resolve, reverse
from django.utils import translation

from articles.models import Article, ArticleQuerySet, PreviewLink, Section
from identity.models import Person
from sources.models import Source

from .views import PAGE_SIZE


def public_urls() -> Iterator[str]:
    """Every public page that exists, edition by edition, list pages and feeds
    included, then the sitemaps and robots.txt.

    Reads a fixed number of queries per edition, however many stories there are.
    """
    for code, _name in settings.LANGUAGES:
        yield from _urls_in(code)
    yield from _crawler_urls()


def _urls_in(code: str) -> Iterator[str]:
    """The pages of one edition: home, stories, sections, tags, people, sources,
    each list with its RSS and Atom feeds."""
    listed = Article.objects.published().available_in(code)
    yield from _pages(_reverse(code, "articles:home"), listed.count())
    yield from _feeds(code, "articles:feed")
    # A story's page exists in every edition: it falls back to another language.
    stories = Article.objects.published().latest_first()
    slugs = [f"slug_{language}" for language, _name in settings.LANGUAGES]
    for story in stories.only("pk", *slugs).iterator(chunk_size=2000):
        yield _url(code, story)
    # Section and source pages exist empty; tag and person pages only while a story
    # listed in this edition uses them.
    sections = list(Section.objects.only("pk", "slug"))
    yield from _lists(code, sections, _counts(listed, "section"))
    for section in sections:
        yield from _feeds(code, "articles:section-feed", slug=section.slug)
    for slug, count in _counts(listed, "tags__slug").items():
        yield from _pages(_reverse(code, "articles:tag", slug=slug), count)
        yield from _feeds(code, "articles:tag-feed", slug=slug)
    named = _counts(listed, "people_named__person")
    people = list(Person.objects.filter(pk__in=list(named)).only("pk", "slug"))
    yield from _lists(code, people, named)
    for person in people:
        yield from _feeds(code, "articles:person-feed", pk=person.pk, slug=person.slug)
    sources = list(Source.objects.only("pk", "slug"))
    yield from _lists(code, sources, _counts(listed, "attributions__source"))
    for source in sources:
        yield from _feeds(code, "sources:feed", slug=source.slug)
    yield from _searches(code)
    for link in PreviewLink.objects.active():
        yield _url(code, link)


def _searches(code: str) -> Iterator[str]:
    """The search a reader would make for each public name of each protected
    person: its results print headlines and snippets around the words found."""
    search = _reverse(code, "articles:search")
    people = Person.objects.filter(identity_protected=True)
    names = {
        name for person in people for name in [person.display_name, *person.alias_list]
    }
    for name in sorted(filter(None, names)):
        yield f"{search}?{urlencode({'q': name})}"


def _feeds(code: str, name: str, **kwargs) -> Iterator[str]:
    """A list's RSS feed and its Atom twin (named `name` and `name`-atom)."""
    yield _reverse(code, name, **kwargs)
    yield _reverse(code, f"{name}-atom", **kwargs)


def _crawler_urls() -> Iterator[str]:
    """robots.txt, the sitemap index, each sitemap it lists and the news sitemap."""
    yield reverse("robots")
    index = reverse("sitemap")
    yield index
    # The sections are read from the index's own wiring, so a sitemap added there
    # is walked too (and articles need not know the apps that add them).
    match = resolve(index)
    for section in match.kwargs["sitemaps"]:
        yield reverse(match.kwargs["sitemap_url_name"], kwargs={"section": section})
    yield reverse("news-sitemap")


def _lists(code: str, owners: Iterable[Model], counts: dict) -> Iterator[str]:
    """Every page of each owner's list, given how many stories each list holds."""
    for owner in owners:
        yield from _pages(_url(code, owner), counts.get(owner.pk, 0))


def _counts(listed: ArticleQuerySet, key: str) -> dict:
    """How many stories of `listed` each value of `key` has, in one query."""
    rows = listed.order_by().values_list(key).annotate(n=Count("pk", distinct=True))
    return {value: count for value, count in rows if value is not None}


def _pages(first: str, count: int) -> Iterator[str]:
    """A list's first page, and each further page its `count` stories fill."""
    yield first
    for number in range(2, ceil(count / PAGE_SIZE) + 1):
        yield f"{first}?page={number}"


def _url(code: str, obj: Model) -> str:
    with translation.override(code):
        return obj.get_absolute_url()


def _reverse(code: str, name: str, **kwargs) -> str:
    with translation.override(code):
        return reverse(name, kwargs=kwargs or None)
