"""python manage.py export_ninjs ID [--lang ar|en] — a story's ninjs document."""

import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from articles.models import Article
from distribution.ninjs import DocumentWithheld, ninjs_document


class Command(BaseCommand):
    help = "Print a story as the IPTC ninjs 3.1 document partners receive."

    def add_arguments(self, parser):
        parser.add_argument("id", type=int, help="The story's id.")
        parser.add_argument(
            "--lang",
            choices=[code for code, _name in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="The edition (default: %(default)s).",
        )
        parser.add_argument(
            "--base-url",
            default="https://example.com",
            help="The site's address, for the document's links (default: %(default)s).",
        )
        parser.add_argument(
            "--plain",
            action="store_true",
            help="Plain ninjs 3.1, without the newsroom's extension.",
        )

    def handle(self, *args, **options):
        article = Article.objects.for_detail().filter(pk=options["id"]).first()
        if article is None:
            raise CommandError(f"There is no story #{options['id']}.")
        try:
            document = ninjs_document(
                article,
                options["lang"],
                base_url=options["base_url"],
                extension=not options["plain"],
            )
        except DocumentWithheld as withheld:
            raise CommandError(str(withheld)) from withheld
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=2))
