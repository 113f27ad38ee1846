"""python manage.py export_story ID — the article in the shape import_story reads."""

import sys

from django.core.management.base import BaseCommand

from articles.models import Article
from ingest.services import story_export


class Command(BaseCommand):
    help = "Write an article out as plain text that import_story reads back."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="+", type=int, help="Article ids.")

    def handle(self, *args, **options):
        failed = False
        for pk in options["ids"]:
            article = Article.objects.filter(pk=pk).first()
            if article is None:
                self.stderr.write(f"There is no article #{pk}.")
                failed = True
                continue
            self.stdout.write(story_export(article=article), ending="")
        if failed:
            sys.exit(1)
