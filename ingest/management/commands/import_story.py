"""python manage.py import_story PATH [PATH …] — `-` reads standard input.

Proposals (new people, cited sources, tags, the breaking flag, posts linked from the
text) are listed by --dry-run and created only when accepted with --accept-*.
"""

import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from ingest.budget import time_budget
from ingest.decode import text_from_bytes
from ingest.problems import StoryImportError, error
from ingest.result import Confirmation, ImportResult, PersonChoice
from ingest.services import story_import


class Command(BaseCommand):
    help = "Import stories from text or HTML files as drafts."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="Files to import; - reads stdin.")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Recognize and report, proposals included; write nothing.",
        )
        parser.add_argument(
            "--json",
            action="store_true",
            help="Print one JSON object (UTF-8) per input; problems carry a code.",
        )
        parser.add_argument(
            "--lang",
            choices=["ar", "en"],
            help="Language of the messages (default: the site's).",
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
        parser.add_argument(
            "--accept-people",
            nargs="*",
            metavar="NAME",
            help="Add the proposed people (all, or those named) in their proposed "
            "roles.",
        )
        parser.add_argument(
            "--accept-cited",
            action="store_true",
            help="Credit every source the body names as cited.",
        )
        parser.add_argument(
            "--accept-tags", action="store_true", help="Tag the story as proposed."
        )
        parser.add_argument(
            "--breaking",
            action="store_true",
            help="Mark the story breaking when its own copy (or a post marked "
            "breaking within the last hours) suggests it.",
        )
        parser.add_argument(
            "--embed-links",
            action="store_true",
            help="Embed posts the text links to (otherwise they stay links).",
        )
        parser.add_argument(
            "--accept-all", action="store_true", help="Accept every proposal."
        )

    def handle(self, *paths, **options):
        for wrapper in (self.stdout, self.stderr):
            stream = getattr(wrapper, "_out", None)
            if hasattr(stream, "reconfigure"):  # a pipe under LANG=C is still UTF-8
                stream.reconfigure(encoding="utf-8")
        try:
            options["by"] = get_user_model().objects.get_by_natural_key(options["user"])
        except get_user_model().DoesNotExist:
            raise CommandError(f"no user named {options['user']!r}") from None
        failed = 0
        with translation.override(options["lang"] or translation.get_language()):
            for path in options["paths"]:
                if not self._import_one(path, options):
                    failed += 1
        if failed:
            sys.exit(1)

    def _import_one(self, path: str, options) -> bool:
        result, problems = None, []
        try:
            text, problems = text_from_bytes(self._read(path))
            common = {
                "text": text,
                "by": options["by"],
                "allow_duplicate": options["allow_duplicate"],
                "origin": "stdin" if path == "-" else Path(path).name,
            }
            with time_budget():  # one budget for both passes over the text
                result = story_import(dry_run=True, **common)
                if not options["dry_run"]:
                    confirmation = self._confirmation(result, options)
                    result = story_import(confirmation=confirmation, **common)
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
                warnings=[p.as_dict() for p in problems if not p.is_error],
                errors=[p.as_dict() for p in errors],
            )
            self.stdout.write(json.dumps(data, ensure_ascii=False, default=str))
        elif result and not errors:
            self.stdout.write(self._summary(path, result, options["dry_run"]))
            proposals = self._proposals(path, result)
            if proposals:
                self.stdout.write(proposals)
        return not errors

    @staticmethod
    def _confirmation(result: ImportResult, options) -> Confirmation:
        if options["accept_all"]:
            return Confirmation.everything(result)
        names = options["accept_people"]
        accepted = [
            p
            for p in result.proposed_people
            if names is not None and (not names or p.name in names)
        ]
        # A name is made an alias only of another name accepted with it.
        chosen = {p.name for p in accepted}
        people = [PersonChoice.proposed(p, chosen) for p in accepted]
        return Confirmation(
            people=people,
            cited=[c.key for c in result.cited] if options["accept_cited"] else [],
            tags=list(result.tags) if options["accept_tags"] else [],
            breaking=options["breaking"] and result.breaking,
            embed_links=[link.url for link in result.story.link_posts]
            if options["embed_links"]
            else [],
        )

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

    @staticmethod
    def _proposals(path: str, result: ImportResult) -> str:
        """One line per proposal, so an editor can decide which --accept-* to pass."""
        lines = []
        for p in result.proposed_people:
            kind = ", nickname" if p.is_nickname else ""
            lines.append(
                f"{path}: proposed person: {p.name} ({p.role}{kind}), line {p.line}: "
                f"{p.evidence}"
            )
            alias_of = p.alias_of or getattr(p.alias_of_person, "display_name", "")
            if alias_of:
                lines.append(
                    f"{path}:   alias of {alias_of}: {p.alias_evidence or p.evidence}"
                )
            elif p.apart:
                lines.append(f"{path}:   kept apart: {p.apart}")
        for c in result.cited:
            lines.append(
                f"{path}: proposed cited source: {c.source.name} "
                f"(“{c.name_used}”, line {c.line})"
            )
        for post, source in result.posts_with_sources():
            if source is not None:
                lines.append(f"{path}: post @{post.handle} is {source.name}'s account")
        if result.tags:
            lines.append(f"{path}: proposed tags: {', '.join(result.tags)}")
        if result.breaking:
            lines.append(f"{path}: proposed: breaking news ({result.breaking_reason})")
        for link in result.story.link_posts:
            lines.append(
                f"{path}: post linked from the text: {link.url} "
                f"(after paragraph {link.position}; --embed-links embeds it)"
            )
        return "\n".join(lines)
