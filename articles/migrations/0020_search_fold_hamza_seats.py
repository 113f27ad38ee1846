"""Search reads a hamza on و or ي as the hamza itself (arabic.search_fold): the
stories' and people's folded search text, and the stories' vectors, are derived anew."""

from django.db import migrations

from core.derived import refresh_search_columns


def index_batch(stories, alias):
    from articles.search_index import index_articles

    index_articles(stories)


class Migration(migrations.Migration):
    dependencies = [("articles", "0018_person_protected_index")]

    operations = [
        refresh_search_columns("articles", "Article", after_batch=index_batch),
        refresh_search_columns("articles", "Person", now_in="identity"),
    ]
