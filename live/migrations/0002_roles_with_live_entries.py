"""Reporters and editors write a live coverage's entries; editors delete them and
start, pause and end the coverage: bring the role groups up to date
(articles.roles)."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("live", "0001_initial"),
        ("articles", "0021_person_name_may_be_unknown"),
        ("sources", "0006_attribution_original_date"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
