"""Reporters and editors write a story's parts (bylines, people named, social posts,
attributions) on its form: bring the role groups up to date (articles.roles)."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0018_person_protected_index"),
        ("sources", "0004_usage_terms_on_pages"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
