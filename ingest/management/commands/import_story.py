"""python manage.py import_story PATH [PATH …] — `-` reads standard input."""

import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ingest.decode import text_from_bytes
from ingest.problems import StoryImportError, error
from ingest.services import story_import


class Command(BaseCommand):
    help = "Import stories from text or HTML files as drafts."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="Files to import; - reads stdin.")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Recognize and report; write nothing.",
        )
        parser.add_argument(
            "--json", action="store_true", help="Print one JSON object per input."
        )
        parser.add_argument(
            "--user",
            required=True,
            help="The editor importing (a username); their permissions apply.",
        )
        parser.add_argument(
            "--allow-duplicate",
            action="store_true",
            help="Import even when the same story already exists.",
        )

    def handle(self, *paths, **options):
        try:
            options["by"] = get_user_model().objects.get_by_natural_key(options["user"])
        except get_user_model().DoesNotExist:
            raise CommandError(f"no user named {options['user']!r}") from None
        failed = 0
        for path in options["paths"]:
            if not self._import_one(path, options):
                failed += 1
        if failed:
            sys.exit(1)

    def _import_one(self, path: str, options) -> bool:
        result, problems = None, []
        try:
            text, problems = text_from_bytes(self._read(path))
            result = story_import(
                text=text,
                by=options["by"],
                dry_run=options["dry_run"],
                allow_duplicate=options["allow_duplicate"],
                origin="stdin" if path == "-" else Path(path).name,
            )
            problems += result.problems
        except OSError as exc:
            problems = [
                error(
                    _("Cannot read %(path)s: %(reason)s")
                    % {"path": path, "reason": exc.strerror or exc},
                    code="unreadable",
                    path=path,
                )
            ]
        except StoryImportError as exc:
            result, problems = exc.result, problems + exc.problems
        errors = [p for p in problems if p.is_error]
        for problem in problems:
            label = "error" if problem.is_error else problem.level
            self.stderr.write(f"{path}: {label}: {problem}")
        if options["json"]:
            data = result.as_dict() if result else {}
            data.update(
                input=path,
                ok=not errors,
                warnings=[
                    dict(p.as_dict(), level=p.level) for p in problems if not p.is_error
                ],
                errors=[p.as_dict() for p in errors],
            )
            self.stdout.write(json.dumps(data, ensure_ascii=False, default=str))
        elif result and not errors:
            self.stdout.write(self._summary(path, result, options["dry_run"]))
        return not errors

    @staticmethod
    def _read(path: str) -> bytes:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", sys.stdin)
            data = stream.read()
            return data.encode() if isinstance(data, str) else data
        return Path(path).read_bytes()

    @staticmethod
    def _summary(path, result, dry_run) -> str:
        story = result.story
        done = (
            "would import (dry run)"
            if dry_run
            else f"imported as draft #{result.article.pk}"
        )
        return (
            f"{path}: {done}: {story.headline} [{story.language}, "
            f"{len(story.paragraphs)} paragraphs, {len(story.posts)} posts, "
            f"{sum(m.matched for m in result.sources)}/{len(result.sources)} sources, "
            f"{len(result.people)} people, {len(result.tags)} tags]"
        )
