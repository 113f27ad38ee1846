from django.db import migrations

MODELS = ("person", "personname")


def content_types_move(apps, schema_editor):
    """The people's content types follow them, with what hangs on them: their
    permissions (and the groups holding those), audit events, versions."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        old = content_type.objects.filter(app_label="articles", model=model).first()
        made = content_type.objects.filter(app_label="identity", model=model).first()
        if old is None:
            continue
        if made is not None:
            # Made after 0001 (by a roles migration of old, or by post_migrate when
            # a migrate stopped between 0001 and this one): empty but for the
            # permissions made with it, which the old type's own take the place of.
            made.delete()
        old.app_label = "identity"
        old.save(update_fields=["app_label"])


def content_types_return(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="identity", model__in=MODELS).update(
        app_label="articles"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("identity", "0001_initial"),
        ("articles", "0023_people_move_to_identity"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(content_types_move, content_types_return),
        migrations.AlterModelTable(name="person", table=None),
        migrations.AlterModelTable(name="personname", table=None),
    ]
