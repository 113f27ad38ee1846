"""Posts placed in the body: the place is a node in the body, it survives saving,
and a placed post cannot be deleted from under its place."""

import importlib
import json

import pytest
from django.core.exceptions import ValidationError

from articles.services import StoryEdit, article_save
from tests.admin_forms import change_form_data
from tests.factories import ArticleFactory, SocialPostFactory, SuperuserFactory

pytestmark = pytest.mark.django_db

migration = importlib.import_module("articles.migrations.0015_posts_placed_in_body")


def placed(article, post) -> None:
    article.body_ar = f'<p>أولى</p><figure data-post="{post.pk}"></figure><p>ثانية</p>'
    article.save()


def test_deleting_a_post_the_body_places_is_refused():
    """The service refuses, naming the post, and the post stays."""
    article = ArticleFactory()
    post = SocialPostFactory(article=article, handle="port_authority")
    placed(article, post)
    with pytest.raises(ValidationError, match="@port_authority"):
        article_save(
            edit=StoryEdit(article=article, deleted=[post]), by=SuperuserFactory()
        )
    assert article.social_posts.filter(pk=post.pk).exists()


def test_a_post_removed_from_the_body_in_the_same_save_may_be_deleted():
    """Taking the post out of the body and deleting it in one save is allowed."""
    article = ArticleFactory()
    post = SocialPostFactory(article=article)
    placed(article, post)
    article.body_ar = "<p>أولى</p><p>ثانية</p>"
    article_save(edit=StoryEdit(article=article, deleted=[post]), by=SuperuserFactory())
    assert not article.social_posts.exists()


def test_the_admin_says_why_a_placed_post_was_not_deleted(admin_client):
    """Ticking "delete" on a placed post's inline shows the reason, not a 500."""
    article = ArticleFactory()
    post = SocialPostFactory(article=article, handle="port_authority")
    placed(article, post)
    url = f"/admin/articles/article/{article.pk}/change/"
    data = change_form_data(admin_client.get(url))
    data["social_posts-0-DELETE"] = "on"
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "@port_authority" in response.content.decode()
    assert article.social_posts.filter(pk=post.pk).exists()


def test_the_editor_offers_the_storys_posts_and_runs_in_each_languages_direction(
    admin_client,
):
    """The change form configures the Arabic body right-to-left, the English one
    left-to-right, and lists the story's saved posts for placing."""
    article = ArticleFactory()
    post = SocialPostFactory(article=article, handle="port_authority")
    response = admin_client.get(f"/admin/articles/article/{article.pk}/change/")
    form = response.context["adminform"].form
    config = {
        name: json.loads(
            form[name].field.widget.get_context(name, "", {})["widget"]["attrs"][
                "data-django-prose-editor-configurable"
            ]
        )["extensions"]
        for name in ("body_ar", "body_en")
    }
    assert config["body_ar"]["TextDirection"] == {"direction": "rtl"}
    assert config["body_en"]["TextDirection"] == {"direction": "ltr"}
    posts = config["body_ar"]["StoryEmbed"]["posts"]
    assert [p["id"] for p in posts] == [post.pk]
    assert "@port_authority" in posts[0]["label"]


def test_older_markup_is_rewritten_to_what_the_editor_makes():
    """b/i/h4 become strong/em/h3, a quotation keeps its marks as text, and inline
    wrappers give way to their text."""
    old = (
        '<h4>عنوان</h4><p><b>قوي</b> <i>مائل</i> <q cite="https://x.org">قول</q> '
        '<span lang="en">Name</span> <bdi>@x</bdi></p>'
    )
    assert migration._rewrite(old, "ar") == (
        "<h3>عنوان</h3><p><strong>قوي</strong> <em>مائل</em> «قول» Name @x</p>"
    )
    assert migration._rewrite("<p><q>said</q></p>", "en") == "<p>“said”</p>"


def test_the_migration_counts_blocks_as_the_page_did():
    """Positions counted top-level blocks, a loose line break included."""
    assert migration._blocks("<p>a</p>loose<br>text<ul><li>x</li></ul>") == [
        "<p>a</p>",
        "<p>loose</p>",
        "<p>text</p>",
        "<ul><li>x</li></ul>",
    ]


@pytest.mark.django_db(transaction=True)
def test_the_migration_places_each_post_after_its_paragraph():
    """Run for real: a post "after paragraph 1" becomes a node after the first
    paragraph, in each language's body, and older markup is rewritten."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [
        ("articles", "0014_roles_with_images"),
        ("articles", "0014_social_post_day"),
    ]
    after = [("articles", "0015_posts_placed_in_body")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Article = apps.get_model("articles", "Article")
    SocialPost = apps.get_model("articles", "SocialPost")
    article = Article.objects.create(
        headline_ar="خبر",
        headline_key="خبر",
        body_ar="<p><b>أولى</b></p><p>ثانية</p>",
        body_en="<p>One</p><p>Two</p>",
    )
    post = SocialPost.objects.create(article=article, position=1)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    migrated = apps.get_model("articles", "Article").objects.get(pk=article.pk)
    node = f'<figure data-post="{post.pk}"></figure>'
    assert migrated.body_ar == f"<p><strong>أولى</strong></p>{node}<p>ثانية</p>"
    assert migrated.body_en == f"<p>One</p>{node}<p>Two</p>"
    MigrationExecutor(connection).migrate(
        MigrationExecutor(connection).loader.graph.leaf_nodes()
    )
