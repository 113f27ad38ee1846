"""People moved to the identity app (identity 0002 moved their permissions with
their content types): bring the role groups up to date (articles.roles), so a new
database grants the people's permissions under their new app too."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0023_people_move_to_identity"),
        ("identity", "0002_tables_of_their_own"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
