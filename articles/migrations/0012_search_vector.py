import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations


def create_index(apps, schema_editor):
    # GIN indexes exist on PostgreSQL only; elsewhere search reads search_text.
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS article_search_vector "
        "ON articles_article USING gin (search_vector)"
    )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS article_search_vector")


def index_stories(apps, schema_editor):
    """Fill the vector of every existing story (PostgreSQL only)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    from articles.search_index import document_vector

    Article = apps.get_model("articles", "Article")
    stories = Article.objects.using(schema_editor.connection.alias)
    for article in stories.iterator():
        stories.filter(pk=article.pk).update(search_vector=document_vector(article))


class Migration(migrations.Migration):

    dependencies = [
        ("articles", "0011_previewlink"),
    ]

    operations = [
        migrations.AddField(
            model_name="article",
            name="search_vector",
            field=django.contrib.postgres.search.SearchVectorField(
                editable=False, null=True
            ),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddIndex(
                    model_name="article",
                    index=django.contrib.postgres.indexes.GinIndex(
                        fields=["search_vector"], name="article_search_vector"
                    ),
                ),
            ],
            database_operations=[
                migrations.RunPython(create_index, drop_index),
            ],
        ),
        migrations.RunPython(index_stories, migrations.RunPython.noop),
    ]
