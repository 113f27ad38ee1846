"""Reporters and editors use the image library: bring the role groups up to date."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0013_hero_image_library"),
        ("images", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
