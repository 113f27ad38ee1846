"""Search reads a hamza on و or ي as the hamza itself (arabic.search_fold)."""

from django.db import migrations

from core.derived import refresh_search_columns


class Migration(migrations.Migration):
    dependencies = [("images", "0001_initial")]

    operations = [refresh_search_columns("images", "Image")]
