from django.db import migrations, models


class Migration(migrations.Migration):
    """The person's row drops the legal spellings 0003 moved to rows of their own
    (apart from 0003: PostgreSQL alters no table with the row checks that 0003's
    writes leave pending)."""

    dependencies = [
        ("identity", "0003_legal_spellings_apart"),
    ]

    operations = [
        migrations.RemoveField(
            model_name='person',
            name='legal_search_text',
        ),
        migrations.RemoveField(
            model_name='person',
            name='other_spellings',
        ),
        migrations.AddConstraint(
            model_name='person',
            constraint=models.CheckConstraint(condition=models.Q(('identity_protected', False), ('name', ''), _connector='OR'), name='protected_person_row_holds_no_legal_name'),
        ),
        migrations.AddConstraint(
            model_name='legalspelling',
            constraint=models.UniqueConstraint(fields=('person', 'position'), name='one_legal_spelling_per_position'),
        ),
    ]
