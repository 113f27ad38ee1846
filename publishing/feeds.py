"""RSS 2.0 and Atom feeds of each edition: the latest stories, and the stories of a
section, a tag, a person or a source."""

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import get_language, gettext
from taggit.models import Tag

from articles.body import lead_text
from articles.models import Article, ArticleQuerySet, Section
from articles.parts import part
from edge.keys import FEEDS, mark
from identity.models import Person
from sources.models import Source

FEED_SIZE = 30


def edition() -> str:
    return get_language() or settings.LANGUAGE_CODE


class StoryFeed(Feed):
    """The latest published stories of the active edition, newest first.

    Subclasses narrow `stories()` to their object; every item is read in a fixed
    number of queries, however many there are.
    """

    # An empty list reveals that the object is used on stories not yet public.
    allow_empty = True
    # Feeds read no query parameter (the page cache ignores them all).
    query_parameters = ()

    def __call__(self, request, *args, **kwargs):
        response = super().__call__(request, *args, **kwargs)
        # Feed sets Last-Modified from the newest item, which does not move when a
        # story is killed or unpublished: a conditional request would then be told
        # "not modified" and keep showing it. Content-based ETags have no such gap.
        del response.headers["Last-Modified"]
        # Every feed is purged with every story's change, and any row's a story
        # shows (edge.purges): a feed is small, and rebuilt at once.
        return mark(response, {FEEDS})

    def stories(self, obj) -> ArticleQuerySet:
        return Article.objects.published()

    def items(self, obj) -> list[Article]:
        stories = (
            self.stories(obj)
            .available_in(edition())
            .latest_first()
            # A feed item names its authors and tags; the bylines are read as
            # the story's declared part (articles.parts).
            .prefetch_related(part("bylines").prefetch(), "tags")
        )
        items = list(stories[:FEED_SIZE])
        if not items and not self.allow_empty:
            raise Http404
        return items

    def title(self, obj) -> str:
        return gettext("Newsroom")

    def description(self, obj) -> str:
        return gettext("The latest news, in Arabic and English.")

    def link(self, obj) -> str:
        return reverse("articles:home")

    def item_title(self, item: Article) -> str:
        return item.headline

    def item_description(self, item: Article) -> str:
        # The edition's own words: a teaser in another language would be misleading.
        code = edition()
        summary = getattr(item, f"summary_{code}", "") or ""
        return summary or lead_text(getattr(item, f"body_{code}", "") or "")

    def item_pubdate(self, item: Article):
        return item.published_at

    def item_updateddate(self, item: Article):
        return item.updated_at

    def item_author_name(self, item: Article) -> str | None:
        names = [b.display_name for b in item.bylines.all() if b.display_name]
        return ", ".join(names) or None

    def item_categories(self, item: Article) -> list[str]:
        return [tag.name for tag in item.tags.all()]


class AtomStoryFeed(StoryFeed):
    feed_type = Atom1Feed

    def subtitle(self, obj) -> str:
        return self.description(obj)


class SectionFeed(StoryFeed):
    def get_object(self, request, slug):
        return get_object_or_404(Section, slug=slug)

    def stories(self, obj: Section) -> ArticleQuerySet:
        return super().stories(obj).filter(section=obj)

    def title(self, obj: Section) -> str:
        return f"{obj.name} · {gettext('Newsroom')}"

    def description(self, obj: Section) -> str:
        return obj.description or obj.name

    def link(self, obj: Section) -> str:
        return obj.get_absolute_url()


class TagFeed(StoryFeed):
    # Like the tag page: a tag used only on drafts must not show the story coming.
    allow_empty = False

    def get_object(self, request, slug):
        return get_object_or_404(Tag, slug=slug)

    def stories(self, obj: Tag) -> ArticleQuerySet:
        return super().stories(obj).filter(tags=obj)

    def title(self, obj: Tag) -> str:
        return f"{obj.name} · {gettext('Newsroom')}"

    def description(self, obj: Tag) -> str:
        return obj.name

    def link(self, obj: Tag) -> str:
        return reverse("articles:tag", kwargs={"slug": obj.slug})


class PersonFeed(StoryFeed):
    """A person's stories, under their public name only; like the person page, it
    does not exist until a published story names them."""

    allow_empty = False

    def __call__(self, request, pk, slug):
        person = get_object_or_404(Person, pk=pk)
        if slug != person.slug:
            url = reverse(request.resolver_match.view_name, args=[pk, person.slug])
            return redirect(url, permanent=True)
        return super().__call__(request, pk=pk, slug=slug)

    def get_object(self, request, pk, slug):
        return get_object_or_404(Person, pk=pk)

    def stories(self, obj: Person) -> ArticleQuerySet:
        return super().stories(obj).filter(people_named__person=obj)

    def title(self, obj: Person) -> str:
        return f"{obj.display_name} · {gettext('Newsroom')}"

    def description(self, obj: Person) -> str:
        return obj.display_name

    def link(self, obj: Person) -> str:
        return obj.get_absolute_url()


class AtomSectionFeed(AtomStoryFeed, SectionFeed):
    pass


class AtomTagFeed(AtomStoryFeed, TagFeed):
    pass


class AtomPersonFeed(AtomStoryFeed, PersonFeed):
    pass


class SourceFeed(StoryFeed):
    def get_object(self, request, slug):
        return get_object_or_404(Source, slug=slug)

    def stories(self, obj: Source) -> ArticleQuerySet:
        # One story may credit the same outlet in two roles (republished and cited).
        return super().stories(obj).filter(attributions__source=obj).distinct()

    def title(self, obj: Source) -> str:
        return f"{obj.name} · {gettext('Newsroom')}"

    def description(self, obj: Source) -> str:
        return obj.name

    def link(self, obj: Source) -> str:
        return obj.get_absolute_url()


class AtomSourceFeed(AtomStoryFeed, SourceFeed):
    pass
