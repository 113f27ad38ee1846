"""Editors add corrections: bring the role groups up to date (articles.roles)."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0009_correction"),
        ("audit", "0004_corrected_action"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
