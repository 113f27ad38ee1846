"""Make the renditions of every image again, or only the missing ones."""

from django.core.management.base import BaseCommand

from images.models import Image
from images.renditions import renditions_make


class Command(BaseCommand):
    help = "Regenerate image renditions (all, or with --missing only those missing)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--missing",
            action="store_true",
            help="Only make renditions that do not exist yet (after an import or a "
            "migration); keep the others.",
        )

    def handle(self, *args, missing: bool = False, **options):
        images = Image.objects.prefetch_related("renditions").order_by("pk")
        total = images.count()
        made = failed = 0
        for done, image in enumerate(images.iterator(chunk_size=100), start=1):
            try:
                made += renditions_make(image, missing_only=missing)
            except OSError as error:
                # A file gone from storage or unreadable: name it and go on.
                failed += 1
                self.stderr.write(f"\nimage {image.pk}: {error}")
            self.stdout.write(f"\r{done}/{total}", ending="")
            self.stdout.flush()
        self.stdout.write(
            f"\n{made} renditions made for {total} images"
            + (f", {failed} images failed" if failed else "")
        )
        if failed:
            raise SystemExit(1)
