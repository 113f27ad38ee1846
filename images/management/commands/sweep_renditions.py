"""Queue the renditions owed that no job carries: an upload made while the queue
was down, a job lost with Redis, a worker killed halfway through a set.

Run it every minute (`--every 60`, as docker-compose does); it goes on through
database and Redis outages. Safe beside the workers and beside another sweep:
enqueuing takes the image's lease, so a set is never queued twice.
"""

from django.core.management.base import BaseCommand

from core.faults import run_every
from images.tasks import renditions_sweep


class Command(BaseCommand):
    help = "Queue the renditions owed that no job carries."

    def add_arguments(self, parser):
        parser.add_argument(
            "--every",
            type=int,
            default=0,
            metavar="SECONDS",
            help="Keep running, sweeping every SECONDS (default: once).",
        )

    def handle(self, *args, every: int = 0, **options):
        verbose = options["verbosity"] > 1

        def sweep() -> None:
            queued = renditions_sweep()
            if queued or verbose:
                self.stdout.write(f"{queued} rendition jobs queued")

        if every:
            run_every(every, sweep, name="sweep_renditions")
        else:
            sweep()
