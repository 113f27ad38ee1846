"""The "Identity officers" group, and people's search text without legal names."""

from django.contrib.auth.management import create_permissions
from django.contrib.contenttypes.management import create_contenttypes
from django.db import migrations

from arabic import normalize

GROUP = "Identity officers"
PERMISSIONS = ["view_legal_name", "view_person", "change_person", "add_person"]


def lines(text):
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations; the group needs them now.
    config = apps.get_app_config("articles")
    config.models_module = True
    create_contenttypes(config, verbosity=0, apps=apps)
    create_permissions(config, verbosity=0, apps=apps)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="articles", codename__in=PERMISSIONS
        )
    )


def refold_people(apps, schema_editor):
    # Searching people must not find a protected person by the legal name.
    Person = apps.get_model("articles", "Person")
    for person in Person.objects.all():
        legal = []
        shown = [person.public_name, *lines(person.aliases)]
        if person.identity_protected:
            legal = [person.name, *lines(person.other_spellings)]
        else:
            shown.insert(0, person.name)
        person.search_text = normalize(" ".join(shown))
        person.legal_search_text = normalize(" ".join(legal))
        person.save(update_fields=["search_text", "legal_search_text"])


class Migration(migrations.Migration):
    dependencies = [
        ("articles", "0003_identity_permissions_and_spellings"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(create_group, migrations.RunPython.noop),
        migrations.RunPython(refold_people, migrations.RunPython.noop),
    ]
