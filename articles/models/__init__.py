from .article import Article, ArticleQuerySet, Byline, Status
from .person import ArticlePerson, Person
from .section import Section
from .social import Platform, SocialPost

__all__ = [
    "Article",
    "ArticlePerson",
    "ArticleQuerySet",
    "Byline",
    "Person",
    "Platform",
    "Section",
    "SocialPost",
    "Status",
]
