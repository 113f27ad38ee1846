"""People's search text without legal names. (This migration also made the
"Identity officers" group; the roles' groups are now kept by core/roles.py after
every migrate.)"""

from django.db import migrations

from arabic import normalize


def lines(text):
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


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
    ]

    operations = [
        migrations.RunPython(refold_people, migrations.RunPython.noop),
    ]
