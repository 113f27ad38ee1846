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
from .story import ArticleDetailView, ArticlePageMixin, news_article_data

__all__ = [
    "PAGE_SIZE",
    "ArticleDetailView",
    "ArticleListView",
    "ArticlePageMixin",
    "ArticlePreviewView",
    "HomeView",
    "PersonView",
    "SearchView",
    "SectionView",
    "SharedPreviewView",
    "TagView",
    "news_article_data",
    "other_languages_urls",
    "public_description",
]
