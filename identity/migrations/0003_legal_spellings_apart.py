import django.db.models.deletion
from django.db import migrations, models

from arabic import search_fold
from core.text import lines


def spellings_apart(apps, schema_editor):
    """Each protected person's legal name and other spellings move to rows of their
    own, and the person's row keeps neither."""
    person_model = apps.get_model("identity", "Person")
    spelling_model = apps.get_model("identity", "LegalSpelling")
    alias = schema_editor.connection.alias
    people = person_model.objects.using(alias).filter(identity_protected=True)
    rows = []
    for person in people.iterator():
        spellings = [person.name, *lines(person.other_spellings)]
        spellings = [s for s in dict.fromkeys(s.strip() for s in spellings) if s]
        rows += [
            spelling_model(
                person_id=person.pk,
                position=position,
                spelling=spelling,
                folded=search_fold(spelling),
            )
            for position, spelling in enumerate(spellings)
        ]
    spelling_model.objects.using(alias).bulk_create(rows, batch_size=2000)
    people.update(name="", other_spellings="", legal_search_text="")


def spellings_back(apps, schema_editor):
    person_model = apps.get_model("identity", "Person")
    spelling_model = apps.get_model("identity", "LegalSpelling")
    alias = schema_editor.connection.alias
    held: dict[int, list[str]] = {}
    for row in spelling_model.objects.using(alias).order_by("person_id", "position"):
        held.setdefault(row.person_id, []).append(row.spelling)
    for person_id, spellings in held.items():
        person_model.objects.using(alias).filter(pk=person_id).update(
            name=spellings[0],
            other_spellings="\n".join(spellings[1:]),
            legal_search_text=search_fold(" ".join(spellings)),
        )


class Migration(migrations.Migration):

    dependencies = [
        ('identity', '0002_tables_of_their_own'),
    ]

    operations = [
        migrations.CreateModel(
            name='LegalSpelling',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField(default=0)),
                ('spelling', models.CharField(max_length=200)),
                ('folded', models.TextField(blank=True, editable=False)),
            ],
            options={
                'ordering': ['person', 'position'],
            },
        ),
        migrations.AddField(
            model_name='legalspelling',
            name='person',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='identity.person'),
        ),
        migrations.RunPython(spellings_apart, spellings_back),
    ]
