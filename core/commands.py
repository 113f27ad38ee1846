"""A management command that does one round of work, once or for good.

The sweeps (webhooks due, renditions owed) run from cron once or as a service with
`--every SECONDS`; either way a round is the same, and with `--every` an outage
ends a round, never the command (core.faults.run_every).
"""

from django.core.management.base import BaseCommand

from .faults import run_every


class RepeatingCommand(BaseCommand):
    """Subclasses say what one round is (`round`); `--every` repeats it."""

    def add_arguments(self, parser):
        parser.add_argument(
            "--every",
            type=int,
            default=0,
            metavar="SECONDS",
            help="Keep running, a round every SECONDS (default: one round).",
        )

    def handle(self, *args, every: int = 0, **options):
        self.verbosity = options["verbosity"]
        if every:
            name = self.__module__.rsplit(".", 1)[-1]
            run_every(every, self.round, name=name)
        else:
            self.round()

    def round(self) -> None:
        raise NotImplementedError
