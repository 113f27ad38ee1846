"""Posts placed in the body: the place is a node in the body, it survives saving,
and a placed post cannot be deleted from under its place."""

import importlib
import json

import pytest
from django.core.exceptions import ValidationError

from articles.models import Article, SocialPost
from articles.services import StoryEdit, article_save
from core.roles import REPORTERS
from tests.admin_forms import change_form_data
from tests.articles.test_admin import (
    add_url,
    article_post_data,
    errors_of,
    management_form,
)
from tests.factories import (
    ArticleFactory,
    SocialPostFactory,
    SuperuserFactory,
    member_of,
)

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
    assert config["body_ar"]["TextDirection"] == {"direction": "rtl", "language": "ar"}
    assert config["body_en"]["TextDirection"] == {"direction": "ltr", "language": "en"}
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
        ("articles", "0013_hero_image_library"),
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


# ------------------------------------------------- placing a post before it is saved


def test_a_post_placed_by_its_key_is_stored_by_its_number():
    """A new story whose bodies place a post not yet saved, by the key its form row
    was given, is stored with the post's number in each place."""
    key = "k7f3a9"
    article = Article(
        headline_ar="خبر جديد",
        body_ar=f'<p>أولى</p><figure data-post-key="{key}"></figure><p>ثانية</p>',
        body_en=f'<p>One</p><figure data-post-key="{key}"></figure>',
    )
    post = SocialPost(platform="x", handle="port_authority", text="بيان")
    edit = StoryEdit(article=article, changed=[post], new_posts={key: post})
    article_save(edit=edit, by=member_of(REPORTERS))
    article.refresh_from_db()
    node = f'<figure data-post="{post.pk}"></figure>'
    assert article.body_ar == f"<p>أولى</p>{node}<p>ثانية</p>"
    assert article.body_en == f"<p>One</p>{node}"
    assert list(article.social_posts.all()) == [post]


def test_a_key_whose_post_is_not_saved_with_the_story_is_refused():
    """A body placing a new post whose row is no longer submitted is refused, and
    nothing is saved: the body would point at nothing."""
    article = Article(
        headline_ar="خبر جديد", body_ar='<figure data-post-key="gone1"></figure>'
    )
    with pytest.raises(ValidationError) as refusal:
        article_save(edit=StoryEdit(article=article), by=member_of(REPORTERS))
    assert refusal.value.code == "placed_post_removed"
    assert not Article.objects.exists()


def test_the_add_form_stores_a_new_post_placed_in_the_body(client):
    """An add-form POST placing the post of its new inline row stores the body
    pointing at the post just created."""
    client.force_login(member_of(REPORTERS))
    # As the editor sends it: the empty caption is the sanitizer's to drop.
    figure = '<figure data-post-key="k1a2"><figcaption></figcaption></figure>'
    body = f'<p dir="auto">أولى</p>{figure}'
    data = article_post_data(body_ar=body, **new_post_row(placement_key="k1a2"))
    response = client.post(add_url(), data)
    assert response.status_code == 302, errors_of(response)
    article = Article.objects.get()
    post = article.social_posts.get()
    assert (
        article.body_ar
        == f'<p dir="auto">أولى</p><figure data-post="{post.pk}"></figure>'
    )


def test_the_add_form_says_why_a_placed_post_without_its_row_is_refused(
    client, settings
):
    """A body placing a post whose inline row was removed is shown again with the
    reason, and nothing is saved."""
    client.force_login(member_of(REPORTERS))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    figure = '<figure data-post-key="k1a2"><figcaption></figcaption></figure>'
    data = article_post_data(body_ar=f"<p>أولى</p>{figure}")
    response = client.post(add_url(), data)
    assert response.status_code == 200
    assert "no longer among the story" in errors_of(response)
    assert not Article.objects.exists() and not SocialPost.objects.exists()


def new_post_row(**fields) -> dict:
    """The social-post inline with one new row, as the add form posts it."""
    row = {
        "platform": "x",
        "url": "https://x.com/port_authority/status/1",
        "author_name": "هيئة الموانئ",
        "handle": "port_authority",
        "posted_at_0": "",
        "posted_at_1": "",
        "posted_on": "",
        "text": "بيان الهيئة",
        "language": "ar",
        "hashtags": "",
        "links": "",
        "media_urls": "",
        "paste": "",
        **fields,
    }
    return {
        **management_form("social_posts", total=1),
        **{f"social_posts-0-{name}": value for name, value in row.items()},
    }
