"""Editors and source managers keep partners' webhooks and replay deliveries:
bring the role groups up to date (articles.roles)."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0022_roles_with_partners"),
        ("distribution", "0003_webhooks"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
