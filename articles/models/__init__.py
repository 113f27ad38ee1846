from .article import Article, ArticleQuerySet, Byline, Status
from .correction import Correction
from .person import ArticlePerson, Person, PersonName
from .preview import PreviewLink, PreviewLinkClosed
from .section import Section
from .social import Platform, SocialPost

__all__ = [
    "Article",
    "ArticlePerson",
    "ArticleQuerySet",
    "Byline",
    "Correction",
    "Person",
    "PersonName",
    "Platform",
    "PreviewLink",
    "PreviewLinkClosed",
    "Section",
    "SocialPost",
    "Status",
]
