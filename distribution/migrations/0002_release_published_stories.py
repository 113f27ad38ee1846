"""Every story already published (or scheduled) is released once, so partners
start from the whole archive rather than only what changes from now on."""

from django.conf import settings
from django.db import migrations

BATCH = 2000


def forwards(apps, schema_editor):
    Article = apps.get_model("articles", "Article")
    Release = apps.get_model("distribution", "Release")
    fields = ["pk", "version", "updated_at", "published_at", "embargo_until"]
    headlines = [f"headline_{code}" for code, _name in settings.LANGUAGES]
    stories = (
        Article.objects.filter(status="published", published_at__isnull=False)
        .order_by("published_at", "pk")
        .values_list(*fields, *headlines)
    )
    rows = []
    for pk, version, updated_at, published_at, embargo_until, *titles in (
        stories.iterator(chunk_size=BATCH)
    ):
        visible_at = max(m for m in (published_at, embargo_until) if m is not None)
        for (code, _name), headline in zip(settings.LANGUAGES, titles, strict=True):
            if headline:
                rows.append(
                    Release(
                        article_id=pk,
                        language=code,
                        event="published",
                        version=version,
                        version_created=updated_at,
                        visible_at=visible_at,
                    )
                )
        if len(rows) >= BATCH:
            Release.objects.bulk_create(rows, ignore_conflicts=True)
            rows = []
    Release.objects.bulk_create(rows, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("distribution", "0001_initial"),
        ("articles", "0021_person_name_may_be_unknown"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
