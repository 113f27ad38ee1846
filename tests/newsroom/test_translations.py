"""The Arabic catalog is compiled and used by the admin and the public pages."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import ArticleFactory, AttributionFactory, SourceFactory

pytestmark = pytest.mark.django_db


def test_model_labels_are_translated_to_arabic():
    """Field labels read in Arabic when Arabic is active."""
    from articles.models import Article

    with translation.override("ar"):
        assert str(Article._meta.get_field("is_breaking").verbose_name) == "عاجل"


def test_article_admin_form_is_in_arabic(admin_client):
    """The editors see Arabic labels in the article form."""
    html = admin_client.get(reverse("admin:articles_article_add")).content.decode()
    assert "الصورة الرئيسية" in html
    assert "الحالة" in html


def test_attribution_line_reads_in_arabic(client):
    """An Arabic article credits its original reporting as "المصدر: …"."""
    source = SourceFactory(name_ar="موقع 24")
    article = AttributionFactory(
        article=ArticleFactory(), source=source, role="original"
    ).article
    with translation.override("ar"):
        html = client.get(article.get_absolute_url()).content.decode()
    assert "المصدر:" in html
    assert "موقع 24" in html
