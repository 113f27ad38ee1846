"""The story form holds the whole submission: its inline rows are validated with
it, checked with it, logged with it and saved from it."""

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.urls import reverse

from articles.models import Byline
from articles.permissions import EDIT_ANY_ARTICLE
from core.roles import EDITORS
from tests.admin_forms import change_form_data
from tests.factories import ArticleFactory, BylineFactory, member_of

pytestmark = pytest.mark.django_db


def change_url(article) -> str:
    return reverse("admin:articles_article_change", args=[article.pk])


def test_a_row_added_on_the_form_is_named_in_the_change_history(client):
    article = ArticleFactory()
    client.force_login(member_of(EDITORS))
    data = change_form_data(client.get(change_url(article)))
    data.update({"bylines-0-name": "كاتب ضيف", "bylines-0-position": "0"})
    response = client.post(change_url(article), data)
    assert response.status_code == 302
    entry = LogEntry.objects.get(object_id=str(article.pk))
    assert "كاتب ضيف" in entry.get_change_message()


def test_an_invalid_row_keeps_the_whole_story_unsaved(client):
    article = ArticleFactory(headline_ar="عنوان قديم")
    client.force_login(member_of(EDITORS))
    data = change_form_data(client.get(change_url(article)))
    data.update(
        {
            "headline_ar": "عنوان جديد",
            "social_posts-TOTAL_FORMS": "1",
            "social_posts-0-platform": "x",
            "social_posts-0-url": "not an address",
        }
    )
    response = client.post(change_url(article), data)
    assert response.status_code == 200
    article.refresh_from_db()
    assert article.headline_ar == "عنوان قديم"


def test_rows_the_user_may_only_view_are_shown_and_left_as_they_are(client):
    article = ArticleFactory()
    BylineFactory(article=article, name="كاتب")
    editor = member_of(EDITORS)
    editor.groups.clear()
    editor.user_permissions.add(
        *Permission.objects.filter(
            codename__in=[
                "view_article",
                "change_article",
                EDIT_ANY_ARTICLE.split(".")[1],
                "view_byline",
            ]
        )
    )
    client.force_login(editor)
    page = client.get(change_url(article))
    assert "كاتب" in page.text
    data = change_form_data(page)
    data["headline_ar"] = "عنوان معدل"
    response = client.post(change_url(article), data)
    assert response.status_code == 302
    assert list(
        Byline.objects.filter(article=article).values_list("name", flat=True)
    ) == ["كاتب"]
