"""Reader-facing pages: lists, the article page, search, and previews."""

from .lists import (
    PAGE_SIZE,
    ArticleListView,
    HomeView,
    PersonView,
    SectionView,
    TagView,
    other_languages_urls,
    public_description,
)
from .previews import ArticlePreviewView, SharedPreviewView
from .search import SearchView
from .story import ArticleDetailView
from .story_page import StoryPage, news_article_data, story_page_context

__all__ = [
    "PAGE_SIZE",
    "ArticleDetailView",
    "ArticleListView",
    "ArticlePreviewView",
    "HomeView",
    "PersonView",
    "SearchView",
    "SectionView",
    "SharedPreviewView",
    "StoryPage",
    "TagView",
    "news_article_data",
    "story_page_context",
    "other_languages_urls",
    "public_description",
]
