from .article import Article
from .byline import Byline
from .correction import Correction
from .person import ArticlePerson
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
    "Platform",
    "PreviewLink",
    "PreviewLinkClosed",
    "Section",
    "SocialPost",
    "Status",
]
