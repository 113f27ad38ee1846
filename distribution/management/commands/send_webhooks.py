"""Send the webhook deliveries that are due and no job carries: releases whose
time came (scheduled stories) or whose job was lost, and tries due again.

Run it every minute (cron, or `--every 60` as docker-compose does); with
`--every` it goes on through database outages. It is safe beside the workers: a
delivery is taken by one sender at a time.
"""

from core.commands import RepeatingCommand
from distribution.webhooks.deliveries import (
    deliveries_due,
    deliveries_make,
    delivery_attempt,
    releases_to_fan_out,
)


class Command(RepeatingCommand):
    help = "Send webhook deliveries that are due."

    def round(self) -> None:
        made, sent = self.sweep()
        if made or sent or self.verbosity > 1:
            self.stdout.write(f"{made} deliveries made, {sent} tries made")

    def sweep(self) -> tuple[int, int]:
        made = sum(len(deliveries_make(r)) for r in releases_to_fan_out())
        sent = 0
        for delivery_id in list(deliveries_due().values_list("pk", flat=True)[:500]):
            if delivery_attempt(delivery_id) is not None:
                sent += 1
        return made, sent
