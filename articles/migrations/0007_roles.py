"""The newsroom's roles as groups (the matrix lives in articles.roles)."""

from django.db import migrations

from articles.roles import create_roles


def forwards(apps, schema_editor):
    create_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0006_workflow_states"),
        ("audit", "0002_workflow_states"),
        ("sources", "0002_anonymous_logo_names"),
        ("taggit", "0006_rename_taggeditem_content_type_object_id_taggit_tagg_content_8fc721_idx"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
