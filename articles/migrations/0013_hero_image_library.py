"""Hero images move into the image library.

Each stored hero file becomes one library Image (the same picture on several stories
becomes one image, found by the hash of its bytes) carrying the story's alt texts,
credit and graphic-content flag; the story keeps its caption as its own and points to
the image. Revisions that named the old file name the image instead, so history and
restore keep working. The files stay where they are (their names are already random).

Renditions are not made here: run `manage.py regenerate_renditions --missing` after
migrating; until then pages show the originals.
"""

import hashlib
import json

import django.db.models.deletion
from django.db import migrations, models

from arabic import normalize

_OLD_FIELDS = ("hero_alt", "hero_alt_ar", "hero_alt_en", "hero_credit", "hero_is_graphic")


def _image_for(Image, article):
    name = article.hero_image.name
    try:
        with article.hero_image.open("rb") as stored:
            data = stored.read()
    except OSError:
        data = b""  # the file is gone: the image keeps the name, pages show nothing
    digest = hashlib.sha256(data or f"missing:{name}".encode()).hexdigest()
    existing = Image.objects.filter(content_hash=digest).first()
    if existing is not None:
        return existing
    width = height = 0
    if data:
        from io import BytesIO

        from PIL import Image as Pillow

        try:
            with Pillow.open(BytesIO(data)) as picture:
                width, height = picture.size
        except (OSError, ValueError):
            pass
    title_ar = article.hero_caption_ar or article.headline_ar or ""
    title_en = article.hero_caption_en or article.headline_en or ""
    fields = {
        "title": (title_ar or title_en or name)[:200],
        "title_ar": title_ar[:200] or None,
        "title_en": title_en[:200] or None,
        "caption": article.hero_caption_ar or article.hero_caption_en or "",
        "caption_ar": article.hero_caption_ar,
        "caption_en": article.hero_caption_en,
        "alt_text": article.hero_alt_ar or article.hero_alt_en or "",
        "alt_text_ar": article.hero_alt_ar,
        "alt_text_en": article.hero_alt_en,
        "credit": article.hero_credit,
        "is_graphic": article.hero_is_graphic,
    }
    words = " ".join(str(v or "") for k, v in fields.items() if k != "is_graphic")
    return Image.objects.create(
        file=name,
        width=width,
        height=height,
        content_hash=digest,
        uploaded_by_id=article.created_by_id,
        search_text=normalize(words),
        **fields,
    )


def _check_now(schema_editor):
    """PostgreSQL refuses to alter a table while foreign-key checks of rows written
    in this transaction are still deferred: run them now, before the columns go."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def move_heroes(apps, schema_editor):
    Article = apps.get_model("articles", "Article")
    Image = apps.get_model("images", "Image")
    moved = {}
    for article in Article.objects.exclude(hero_image="").order_by("pk"):
        name = article.hero_image.name
        if name not in moved:
            moved[name] = _image_for(Image, article).pk
        article.hero_picture_id = moved[name]
        article.save(update_fields=["hero_picture"])
    _rewrite_revisions(apps, moved)
    _check_now(schema_editor)


def _rewrite_revisions(apps, moved):
    """Old revisions name the file; the model now wants an image's number."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    Version = apps.get_model("reversion", "Version")
    kind = ContentType.objects.filter(app_label="articles", model="article").first()
    if kind is None:
        return
    for version in Version.objects.filter(content_type=kind, format="json"):
        objects = json.loads(version.serialized_data)
        for obj in objects:
            fields = obj.get("fields", {})
            if "hero_image" not in fields:
                continue
            fields["hero_image"] = moved.get(fields["hero_image"] or "")
            for old in _OLD_FIELDS:
                fields.pop(old, None)
        version.serialized_data = json.dumps(objects)
        version.save(update_fields=["serialized_data"])


def move_back(apps, schema_editor):
    Article = apps.get_model("articles", "Article")
    for article in Article.objects.filter(hero_picture__isnull=False).select_related(
        "hero_picture"
    ):
        image = article.hero_picture
        article.hero_image = image.file.name
        article.hero_alt_ar = image.alt_text_ar or ""
        article.hero_alt_en = image.alt_text_en or ""
        article.hero_alt = image.alt_text or ""
        article.hero_credit = image.credit
        article.hero_is_graphic = image.is_graphic
        article.save()
    _check_now(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0012_search_vector"),
        ("images", "0001_initial"),
        ("reversion", "0002_add_index_on_version_for_content_type_and_db"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AddField(
            model_name="article",
            name="hero_picture",
            field=models.ForeignKey(
                blank=True,
                help_text="Chosen from the image library; “+” uploads a new one.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="hero_of",
                to="images.image",
                verbose_name="hero image",
            ),
        ),
        migrations.RunPython(move_heroes, move_back),
        migrations.RemoveField(model_name="article", name="hero_image"),
        migrations.RemoveField(model_name="article", name="hero_alt"),
        migrations.RemoveField(model_name="article", name="hero_alt_ar"),
        migrations.RemoveField(model_name="article", name="hero_alt_en"),
        migrations.RemoveField(model_name="article", name="hero_credit"),
        migrations.RemoveField(model_name="article", name="hero_is_graphic"),
        migrations.RenameField(
            model_name="article", old_name="hero_picture", new_name="hero_image"
        ),
        migrations.AlterField(
            model_name='article',
            name='hero_caption',
            field=models.CharField(blank=True, help_text="Leave empty to use the image's own caption.", max_length=300, verbose_name='caption in this story'),
        ),
        migrations.AlterField(
            model_name='article',
            name='hero_caption_ar',
            field=models.CharField(blank=True, help_text="Leave empty to use the image's own caption.", max_length=300, null=True, verbose_name='caption in this story'),
        ),
        migrations.AlterField(
            model_name='article',
            name='hero_caption_en',
            field=models.CharField(blank=True, help_text="Leave empty to use the image's own caption.", max_length=300, null=True, verbose_name='caption in this story'),
        ),
    ]
