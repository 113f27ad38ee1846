import django.contrib.postgres.indexes
from django.db import migrations, models


def create_trigram_index(apps, schema_editor):
    # Trigram indexes exist on PostgreSQL only; elsewhere the admin scans the
    # folded text, which is fine at the size of a development database.
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS article_search_text_trgm "
        "ON articles_article USING gin (search_text gin_trgm_ops)"
    )


def drop_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS article_search_text_trgm")


class Migration(migrations.Migration):

    dependencies = [
        ("articles", "0015_posts_placed_in_body"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="article",
            index=models.Index(
                models.OrderBy(models.F("is_breaking"), descending=True),
                models.OrderBy(models.F("published_at"), descending=True),
                models.OrderBy(models.F("id"), descending=True),
                condition=models.Q(("status", "published")),
                name="article_home",
            ),
        ),
        migrations.AddIndex(
            model_name="article",
            index=models.Index(
                models.OrderBy(models.F("published_at"), descending=True),
                models.OrderBy(models.F("id"), descending=True),
                condition=models.Q(("status", "published")),
                name="article_latest",
            ),
        ),
        migrations.AddIndex(
            model_name="article",
            index=models.Index(
                models.F("section"),
                models.OrderBy(models.F("published_at"), descending=True),
                models.OrderBy(models.F("id"), descending=True),
                condition=models.Q(("status", "published")),
                name="article_section_latest",
            ),
        ),
        migrations.AddIndex(
            model_name="article",
            index=models.Index(
                models.OrderBy(models.F("published_at"), descending=True),
                models.OrderBy(models.F("id"), descending=True),
                name="article_desk_order",
            ),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddIndex(
                    model_name="article",
                    index=django.contrib.postgres.indexes.GinIndex(
                        fields=["search_text"],
                        name="article_search_text_trgm",
                        opclasses=["gin_trgm_ops"],
                    ),
                ),
            ],
            database_operations=[
                migrations.RunPython(create_trigram_index, drop_trigram_index),
            ],
        ),
    ]
