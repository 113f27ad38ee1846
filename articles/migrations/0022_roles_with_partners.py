"""Editors and source managers keep the content API's partners and their keys:
bring the role groups up to date (articles.roles)."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0021_person_name_may_be_unknown"),
        ("distribution", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
