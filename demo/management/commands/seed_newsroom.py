"""`manage.py seed_newsroom --stories 100000`: a fictional archive for benchmarks."""

import time

from django.core.management.base import BaseCommand, CommandError, OutputWrapper

from demo.seed import seed_newsroom


class Command(BaseCommand):
    help = (
        "Write N fictional stories (with bylines, people, tags, sources) straight to "
        "the database in batches, for benchmarks and for trying the admin at size. "
        "A benchmark tool, not an editorial path: it bypasses the services, so no "
        "audit event, revision or identity check is made for the seeded rows. "
        "Never run it on a newsroom's real database."
    )

    def add_arguments(self, parser):
        parser.add_argument("--stories", type=int, required=True, help="stories to add")
        parser.add_argument(
            "--people", type=int, default=2000, help="people in the database at least"
        )
        parser.add_argument(
            "--sources", type=int, default=60, help="sources in the database at least"
        )
        parser.add_argument("--batch", type=int, default=1000, help="rows per insert")
        parser.add_argument("--seed", type=int, default=1, help="random seed")

    def handle(self, *args, stories, people, sources, batch, seed, **options):
        if stories < 0 or batch < 1:
            raise CommandError("--stories must be 0 or more and --batch at least 1.")
        started = time.monotonic()
        bar = ProgressBar(stories, stream=self.stderr)
        counts = seed_newsroom(
            stories=stories,
            people=people,
            sources=sources,
            batch=batch,
            seed=seed,
            progress=bar.update,
        )
        bar.finish()
        elapsed = time.monotonic() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Seeded {counts['stories']} stories in {elapsed:.0f} s "
                f"({counts['people']} people, {counts['sources']} sources in all)."
            )
        )


class ProgressBar:
    """A one-line bar with the rate, redrawn in place on a terminal."""

    WIDTH = 30

    def __init__(self, total: int, *, stream: OutputWrapper) -> None:
        self.total, self.stream = total, stream
        self.started = time.monotonic()

    def update(self, done: int) -> None:
        filled = self.WIDTH * done // max(self.total, 1)
        rate = done / max(time.monotonic() - self.started, 1e-6)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] "
            f"{done}/{self.total} stories, {rate:.0f}/s",
            ending="",
        )
        self.stream.flush()

    def finish(self) -> None:
        self.stream.write("")
