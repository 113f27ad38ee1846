"""The feed of the stories that credit a news outlet."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from articles.feeds import AtomStoryFeed, StoryFeed
from articles.models import ArticleQuerySet

from .models import Source


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
