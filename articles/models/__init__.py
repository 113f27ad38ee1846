from .article import Article
from .byline import Byline
from .correction import Correction
from .person import ArticlePerson, Person, PersonName
from .preview import PreviewLink, PreviewLinkClosed
from .queryset import ArticleQuerySet
from .section import Section
from .social import Platform, SocialPost
from .status import Status

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
