"""Rules the article models keep for themselves."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from articles.models import Article, Status
from identity.services import person_check
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    DraftArticleFactory,
    PersonFactory,
    ProtectedPersonFactory,
)

pytestmark = pytest.mark.django_db


def test_arabic_headline_gets_an_arabic_slug():
    """The slug keeps Arabic letters and drops tashkeel."""
    article = ArticleFactory(headline_ar="مهرّب الأرشيف يكشف هويته")
    assert article.slug_ar == "مهرب-الأرشيف-يكشف-هويته"


def test_body_is_sanitized_on_save():
    """Scripts and event handlers never reach the database."""
    article = ArticleFactory(body_ar='<p onclick="x()">نص</p><script>alert(1)</script>')
    article.refresh_from_db()
    assert "script" not in article.body_ar
    assert "onclick" not in article.body_ar


def test_plain_text_body_becomes_paragraphs():
    """Text pasted without markup keeps its paragraphs."""
    article = ArticleFactory(body_ar="الفقرة الأولى\n\nالفقرة الثانية")
    assert article.body_ar == "<p>الفقرة الأولى</p><p>الفقرة الثانية</p>"


def test_published_excludes_drafts_and_future_articles():
    """Only published articles dated in the past are public."""
    from datetime import timedelta

    from django.utils import timezone

    public = ArticleFactory()
    DraftArticleFactory()
    ArticleFactory(published_at=timezone.now() + timedelta(days=1))
    assert list(Article.objects.published()) == [public]


def test_publishing_without_a_date_dates_it_now():
    """Setting status to published stamps the publication time."""
    article = DraftArticleFactory()
    article.status = Status.PUBLISHED
    article.save()
    assert article.published_at is not None


def test_headline_in_the_story_language_is_required():
    """An English story needs an English headline."""
    article = ArticleFactory.build(language="en", headline_ar="عنوان", headline_en="")
    with pytest.raises(ValidationError) as error:
        article.clean()
    assert "headline_en" in error.value.message_dict


def test_search_text_is_normalized():
    """Search text folds hamza and tashkeel so "الاسد" matches "الأسد"."""
    article = ArticleFactory(headline_ar="نظام الأسد والمهرّب")
    assert "الاسد" in article.search_text
    assert "المهرب" in article.search_text


def test_protected_person_needs_a_public_name():
    """A protected identity cannot be saved without a pseudonym."""
    person = PersonFactory.build(identity_protected=True, public_name="")
    with pytest.raises(ValidationError) as error:
        person.clean()
    assert "public_name" in error.value.message_dict


def test_protected_person_slug_comes_from_the_pseudonym():
    """The public URL of a protected person never spells the legal name."""
    person = ProtectedPersonFactory()
    assert person.slug == "الشاهد"
    assert person.display_name == "الشاهد"


def test_name_used_cannot_reveal_a_protected_person():
    """A story may not name a protected person by their legal name."""
    link = ArticlePersonFactory.build(
        person=ProtectedPersonFactory(), name_used="يوسف المنصوري"
    )
    with pytest.raises(ValidationError):
        link.clean()


def test_sections_with_the_same_name_get_distinct_slugs():
    """Two desks named alike still get separate pages."""
    from tests.factories import SectionFactory

    assert SectionFactory(name_ar="محليات", name_en="Local").slug == "local"
    assert SectionFactory(name_ar="محليات", name_en="Local").slug == "local-2"


def test_english_description_cannot_reveal_a_protected_person():
    """Every language of the description is checked, not only the active one."""
    person = ProtectedPersonFactory.build(description_en="Real name: يوسف المنصوري")
    with pytest.raises(ValidationError) as error:
        person_check(person=person)
    assert "description_en" in error.value.message_dict


def test_slug_follows_a_changed_headline():
    """A slug made from the headline is remade when the headline changes, so no
    earlier wording survives in the address."""
    article = DraftArticleFactory(headline_en="Draft title naming someone")
    article = Article.objects.get(pk=article.pk)
    article.headline_en = "Final title"
    article.save()
    assert article.slug_en == "final-title"


def test_a_slug_typed_by_hand_stays_when_the_headline_changes():
    """An editor's own slug is kept."""
    article = DraftArticleFactory(headline_en="First title", slug_en="chosen-words")
    article = Article.objects.get(pk=article.pk)
    article.headline_en = "Second title"
    article.save()
    assert article.slug_en == "chosen-words"


def test_an_old_address_still_reaches_the_story(client):
    """Stories are found by number, so a remade slug's old address redirects."""
    article = ArticleFactory(headline_ar="عنوان أول")
    old = article.get_absolute_url()
    article = Article.objects.get(pk=article.pk)
    article.headline_ar = "عنوان ثان"
    article.save()
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == article.get_absolute_url()


def test_newest_first_is_the_same_order_with_or_without_its_index():
    """The expression search slices sort by orders stories exactly as the index."""
    now = timezone.now()
    for age in (3, 1, 2, 1):
        ArticleFactory(published_at=now - timedelta(days=age))
    stories = Article.objects.all()
    assert list(stories.latest_first(by_index=False)) == list(stories.latest_first())
