"""Search reads a hamza on و or ي as the hamza itself (arabic.search_fold)."""

from django.db import migrations

from core.derived import refresh_search_columns


class Migration(migrations.Migration):
    dependencies = [("sources", "0004_usage_terms_on_pages")]

    operations = [refresh_search_columns("sources", "Source")]
