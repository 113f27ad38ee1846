"""Source managers keep the wire's channels, editors the incoming list and the
Media Topic mapping: bring the role groups up to date (articles/roles.py)."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("wire", "0001_initial"),
        ("articles", "0021_person_name_may_be_unknown"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
