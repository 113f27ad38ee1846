"""What other apps add to the story's admin comes through one registry
(articles.admin.extensions): one ArticleAdmin, registered once, that reads it."""

import pytest
from django.contrib import admin
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from articles.admin import ArticleAdmin, SocialPostInline
from articles.admin.extensions import StoryAdminExtensions
from articles.models import Article
from core.admin_mixins import QueryBoundsMixin
from ingest.admin import PastingSocialPostInline
from sources.admin import AttributionInline
from tests.factories import ArticleFactory, SourceFactory, member_of

pytestmark = pytest.mark.django_db

LIST = reverse("admin:articles_article_changelist")


def change_url(article) -> str:
    return reverse("admin:articles_article_change", args=[article.pk])


def test_no_app_subclasses_the_story_admin_to_register_it_again():
    """The only subclass is the site's own wrap (NewsroomAdminSite.register)."""
    assert isinstance(admin.site.get_model_admin(Article), ArticleAdmin)
    others = [
        subclass
        for subclass in ArticleAdmin.__subclasses__()
        if not issubclass(subclass, QueryBoundsMixin)
    ]
    assert others == []


def test_an_inline_registered_by_an_app_follows_the_storys_own(rf):
    request = rf.get("/")
    request.user = member_of("Editors")
    inlines = admin.site.get_model_admin(Article).get_inlines(request, None)
    assert inlines[-1] is AttributionInline
    assert PastingSocialPostInline in inlines
    assert SocialPostInline not in inlines


def test_one_inline_replaced_by_two_apps_fails_at_startup():
    class Other(SocialPostInline):
        pass

    extensions = StoryAdminExtensions()
    extensions.add_inline(PastingSocialPostInline, replacing=SocialPostInline)
    with pytest.raises(ImproperlyConfigured):
        extensions.add_inline(Other, replacing=SocialPostInline)


def test_a_registered_list_filter_is_offered_on_the_list(client):
    SourceFactory.create_batch(2)
    client.force_login(member_of("Editors"))
    response = client.get(LIST)
    assert "attributions__source__id__exact" in response.text


def test_reporters_see_the_import_button_above_the_list(client):
    client.force_login(member_of("Reporters"))
    response = client.get(LIST)
    assert reverse("admin:articles_article_import") in response.text


def test_whoever_may_not_add_stories_is_not_offered_the_import(client):
    client.force_login(member_of("Source managers"))
    response = client.get(LIST)
    assert response.status_code == 200
    assert reverse("admin:articles_article_import") not in response.text


def test_a_panel_is_linked_from_the_forms_tools_and_shown_below_it(client):
    article = ArticleFactory()
    client.force_login(member_of("Editors"))
    response = client.get(change_url(article))
    assert 'href="#live-desk"' in response.text
    assert 'id="live-desk"' in response.text


def test_a_panel_is_left_out_for_whoever_may_not_use_it(client):
    article = ArticleFactory()
    client.force_login(member_of("Source managers"))
    response = client.get(change_url(article))
    assert response.status_code == 200
    assert "live-desk" not in response.text


def test_the_registered_pages_come_before_the_admins_catch_all():
    patterns = admin.site.get_model_admin(Article).get_urls()
    names = [pattern.name for pattern in patterns]
    assert names.index("articles_article_preview") < names.index(
        "articles_article_change"
    )
