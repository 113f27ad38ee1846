from .article import Article, ArticleQuerySet, Byline, Status
from .correction import Correction
from .person import ArticlePerson, Person
from .section import Section
from .social import Platform, SocialPost

__all__ = [
    "Article",
    "ArticlePerson",
    "ArticleQuerySet",
    "Byline",
    "Correction",
    "Person",
    "Platform",
    "Section",
    "SocialPost",
    "Status",
]
