"""Queue the renditions owed that no job carries: an upload made while the queue
was down, a job lost with Redis, a worker killed halfway through a set.

Run it every minute (`--every 60`, as docker-compose does); it goes on through
database and Redis outages. Safe beside the workers and beside another sweep:
enqueuing takes the image's lease, so a set is never queued twice.
"""

from core.commands import RepeatingCommand
from images.tasks import renditions_sweep


class Command(RepeatingCommand):
    help = "Queue the renditions owed that no job carries."

    def round(self) -> None:
        queued = renditions_sweep()
        if queued or self.verbosity > 1:
            self.stdout.write(f"{queued} rendition jobs queued")
