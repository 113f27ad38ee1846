"""A task for the queue's tests: a job that holds its worker, as a trickling
agency feed does."""

import time

from django_tasks import task


@task()
def nap(seconds: float) -> None:
    time.sleep(seconds)
