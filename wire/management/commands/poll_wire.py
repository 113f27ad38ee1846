"""Poll the wire channels that are due (run it every minute from cron or a worker's
scheduler): each channel's poll runs as a task on the task queue."""

from django.core.management.base import BaseCommand, CommandError

from wire.channels import channel_poll, channels_due, poll_claim, poll_release
from wire.models import Channel
from wire.tasks import poll_enqueue


class Command(BaseCommand):
    help = "Poll due wire channels (drop folders and feeds) for agency copy."

    def add_arguments(self, parser):
        parser.add_argument(
            "--channel", type=int, action="append", help="only this channel id"
        )
        parser.add_argument(
            "--now",
            action="store_true",
            help="poll in this process instead of enqueuing a task per channel",
        )
        parser.add_argument(
            "--all", action="store_true", help="every active channel, due or not"
        )

    def handle(self, *args, channel=None, now=False, all=False, **options):
        if channel:
            channels = list(Channel.objects.filter(pk__in=channel))
            if len(channels) != len(set(channel)):
                raise CommandError("No such channel: " + ", ".join(map(str, channel)))
        elif all:
            channels = list(Channel.objects.filter(active=True))
        else:
            channels = channels_due()
        for item in channels:
            if now:
                if not poll_claim(item.pk):
                    self.stdout.write(f"{item}: being polled already")
                    continue
                try:
                    report = channel_poll(item)
                finally:
                    poll_release(item.pk)
                self.stdout.write(
                    f"{item}: {report.files} file(s), {report.rejected} rejected, "
                    f"{report.outcomes}"
                )
            elif poll_enqueue(item):
                self.stdout.write(f"{item}: poll enqueued")
            else:
                # The clock runs every minute; a slow poll is not queued twice.
                self.stdout.write(f"{item}: queued or being polled already")
