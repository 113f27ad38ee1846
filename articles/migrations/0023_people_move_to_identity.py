import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """People move to the identity app: only the state changes here, the tables and
    the foreign key to them stay (identity 0002 renames the tables)."""

    dependencies = [
        ("articles", "0021_person_name_may_be_unknown"),
        ("identity", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="articleperson",
                    name="person",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="appearances",
                        to="identity.person",
                        verbose_name="person",
                    ),
                ),
                migrations.AlterField(
                    model_name="article",
                    name="people",
                    field=models.ManyToManyField(
                        blank=True,
                        related_name="articles",
                        through="articles.ArticlePerson",
                        to="identity.person",
                    ),
                ),
                migrations.DeleteModel(name="PersonName"),
                migrations.DeleteModel(name="Person"),
            ]
        )
    ]
