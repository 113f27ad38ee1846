import django.db.models.deletion
import django.db.models.functions.comparison
from django.db import migrations, models


"""People move from the articles app to this one: the state moves here, the tables
stay as they are (renamed in 0002)."""

class Migration(migrations.Migration):

    initial = True

    # The tables were made by articles' migrations; this takes them over.
    dependencies = [("articles", "0021_person_name_may_be_unknown")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Person',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(blank=True, help_text='Full name. For a protected person: the legal name, never published. Leave it empty when the person is known only by a nickname.', max_length=200, verbose_name='name')),
                        ('public_name', models.CharField(blank=True, help_text='The name readers see; required when the identity is protected.', max_length=200, verbose_name='public name')),
                        ('other_spellings', models.TextField(blank=True, help_text='For a protected person: the legal name as written in other scripts or forms, one per line (e.g. Mazen al-Khatib); none is ever published.', verbose_name='other spellings of the legal name')),
                        ('aliases', models.TextField(blank=True, help_text='Other names the person is known by, one per line (e.g. قيصر, Caesar).', verbose_name='aliases and pseudonyms')),
                        ('description', models.CharField(blank=True, max_length=300, verbose_name='short description')),
                        ('description_ar', models.CharField(blank=True, max_length=300, null=True, verbose_name='short description')),
                        ('description_en', models.CharField(blank=True, max_length=300, null=True, verbose_name='short description')),
                        ('identity_protected', models.BooleanField(default=False, help_text='Hide the legal name from every public page, feed and API.', verbose_name='identity protected')),
                        ('slug', models.SlugField(allow_unicode=True, editable=False, max_length=100, verbose_name='slug')),
                        ('search_text', models.TextField(blank=True, editable=False)),
                        ('legal_search_text', models.TextField(blank=True, editable=False)),
                    ],
                    options={
                        'verbose_name': 'person',
                        'verbose_name_plural': 'people',
                        'ordering': [django.db.models.functions.comparison.Coalesce(django.db.models.functions.comparison.NullIf('public_name', models.Value('')), 'name'), 'pk'],
                        'permissions': [('view_legal_name', 'Can see and edit the legal names of protected people')],
                        'indexes': [models.Index(condition=models.Q(('identity_protected', True)), fields=['identity_protected'], name='person_protected')],
                        'db_table': 'articles_person',
                    },
                ),
                migrations.CreateModel(
                    name='PersonName',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('head', models.CharField(db_index=True, max_length=200)),
                        ('words', models.CharField(max_length=300)),
                        ('kind', models.CharField(choices=[('name', 'name'), ('public_name', 'public name'), ('alias', 'alias')], max_length=20)),
                        ('person', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='names', to='identity.person')),
                    ],
                    options={
                        'ordering': ['pk'],
                        'db_table': 'articles_personname',
                    },
                ),
            ],
        ),
    ]
