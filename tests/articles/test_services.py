"""Publishing: the one path to the public site, and its guard on identities."""

import pytest
from django.core.exceptions import ValidationError

from articles.models import Article, Status
from articles.services import article_publish, article_unpublish
from tests.factories import (
    ArticlePersonFactory,
    DraftArticleFactory,
    ProtectedPersonFactory,
    SocialPostFactory,
)

pytestmark = pytest.mark.django_db


def test_publish_makes_a_draft_public():
    """A published draft is among the public articles."""
    article = article_publish(article=DraftArticleFactory())
    assert article.status == Status.PUBLISHED
    assert article in Article.objects.published()


def test_publish_refuses_a_protected_legal_name_in_the_body():
    """The legal name of a protected person blocks publication."""
    ProtectedPersonFactory()
    article = DraftArticleFactory(body_ar="<p>قال يوسف المنصوري إن الملفات نُقلت.</p>")
    with pytest.raises(ValidationError, match="body_ar"):
        article_publish(article=article)
    article.refresh_from_db()
    assert article.status == Status.DRAFT


def test_publish_refuses_a_protected_legal_name_with_tashkeel():
    """Diacritics or hamza variants do not smuggle a protected name through."""
    ProtectedPersonFactory()
    article = DraftArticleFactory(headline_ar="يُوسُف المنصوري يتحدث")
    with pytest.raises(ValidationError, match="headline_ar"):
        article_publish(article=article)


def test_publish_refuses_a_protected_legal_name_in_a_social_post():
    """Embedded post text is public too."""
    ProtectedPersonFactory()
    post = SocialPostFactory(article=DraftArticleFactory(), text="صورة يوسف المنصوري")
    with pytest.raises(ValidationError, match="social_post"):
        article_publish(article=post.article)


def test_publish_allows_the_pseudonym():
    """Naming a protected person by pseudonym is fine."""
    person = ProtectedPersonFactory()
    link = ArticlePersonFactory(
        article=DraftArticleFactory(body_ar="<p>قال الشاهد إن الملفات نُقلت.</p>"),
        person=person,
        name_used="الشاهد",
    )
    assert article_publish(article=link.article).status == Status.PUBLISHED


def test_unpublish_takes_an_article_off_the_site():
    """An unpublished article is a draft again and no longer public."""
    article = article_publish(article=DraftArticleFactory())
    article_unpublish(article=article)
    assert article not in Article.objects.published()


def test_publish_refuses_a_protected_legal_name_in_a_tag():
    """Tags are public pages too."""
    ProtectedPersonFactory()
    article = DraftArticleFactory()
    article.tags.add("يوسف المنصوري")
    with pytest.raises(ValidationError, match="tags"):
        article_publish(article=article)
