"""Hero images moved into the library (0013): the old columns go, and the link to the
library image takes the field's name.

Kept apart from the data migration: PostgreSQL refuses to alter a table in the
transaction that wrote rows with deferred foreign-key checks still pending.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0013_hero_image_library"),
    ]

    operations = [
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
