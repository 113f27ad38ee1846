"""The data migration that moves hero images into the library."""

import json

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from articles.models import Article
from images.models import Image
from tests.images.pictures import photo_bytes

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("articles", "0012_search_vector"),
    ("reversion", "0002_add_index_on_version_for_content_type_and_db"),
    ("contenttypes", "0002_remove_content_type_name"),
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_hero_images_become_library_images_and_revisions_follow():
    """Each stored hero file becomes one image with the story's alt text, credit
    and graphic flag; two stories with one file share it; revisions name it."""
    old = migrate(BEFORE)
    name = default_storage.save("articles/2025/01/abc.jpg", ContentFile(photo_bytes()))
    OldArticle = old.get_model("articles", "Article")
    hero = {
        "hero_image": name,
        "hero_alt_ar": "سفن راسية",
        "hero_alt_en": "Ships at anchor",
        "hero_caption_ar": "الميناء صباحاً",
        "hero_credit": "AFP",
        "hero_is_graphic": True,
    }
    first = OldArticle.objects.create(headline_ar="الأول", **hero)
    second = OldArticle.objects.create(headline_ar="الثاني", **hero)
    OldArticle.objects.create(headline_ar="بلا صورة")
    kind = old.get_model("contenttypes", "ContentType").objects.get_or_create(
        app_label="articles", model="article"
    )[0]
    revision = old.get_model("reversion", "Revision").objects.create(
        date_created="2025-01-01T00:00:00Z", comment="old"
    )
    version = old.get_model("reversion", "Version").objects.create(
        revision=revision,
        object_id=str(first.pk),
        content_type=kind,
        db="default",
        format="json",
        serialized_data=json.dumps(
            [{"model": "articles.article", "pk": first.pk, "fields": hero}]
        ),
        object_repr="الأول",
    )

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    image = Image.objects.get()
    assert image.file.name == name
    assert (image.alt_text_ar, image.alt_text_en) == ("سفن راسية", "Ships at anchor")
    assert image.caption_ar == "الميناء صباحاً"
    assert image.credit == "AFP" and image.is_graphic
    assert (image.width, image.height) == (1600, 900)
    stories = Article.objects.filter(pk__in=[first.pk, second.pk])
    assert {story.hero_image_id for story in stories} == {image.pk}
    assert Article.objects.get(pk=first.pk).hero_caption_ar == "الميناء صباحاً"
    version.refresh_from_db()
    fields = json.loads(version.serialized_data)[0]["fields"]
    assert fields["hero_image"] == image.pk and "hero_credit" not in fields


def test_the_move_can_be_undone():
    """Migrating back puts the file name, alt texts, credit and flag on the story."""
    old = migrate(BEFORE)
    name = default_storage.save("articles/2025/02/def.jpg", ContentFile(photo_bytes()))
    story = old.get_model("articles", "Article").objects.create(
        headline_ar="خبر",
        hero_image=name,
        hero_alt_en="Ships",
        hero_credit="AFP",
        hero_is_graphic=True,
    )
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    back = migrate(BEFORE).get_model("articles", "Article").objects.get(pk=story.pk)
    assert back.hero_image.name == name
    assert (back.hero_alt_en, back.hero_credit, back.hero_is_graphic) == (
        "Ships",
        "AFP",
        True,
    )
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
