"""Remove wire items nobody took and old channel log lines (run daily from cron)."""

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from wire.services import wire_prune


class Command(BaseCommand):
    help = "Remove wire items never taken, and channel log lines, older than --days."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30, help="keep this many days")

    def handle(self, *args, days: int, **options):
        if days < 1:
            raise CommandError("--days must be 1 or more.")
        removed = wire_prune(before=timezone.now() - timedelta(days=days))
        self.stdout.write(f"{removed} wire item(s) older than {days} days removed.")
