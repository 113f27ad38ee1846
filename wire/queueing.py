"""The work the wire's services queue: an item's pictures, fetched after commit.

Below the services, so that they can queue it: its work needs only the item's row
and wire/pictures.py. Polling a channel goes through the services, so its task is
in wire/tasks.py, above them.
"""

from functools import partial

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django_tasks import task

from .models import AgencyItem
from .pictures import pictures_import


@task()
def fetch_pictures(agency_item_id: int, user_id: int) -> int:
    """Bring the pictures of a taken item into the library, the first as the
    story's hero; returns how many were added."""
    row = (
        AgencyItem.objects.select_related("article", "source")
        .filter(pk=agency_item_id)
        .first()
    )
    user = get_user_model().objects.filter(pk=user_id).first()
    if row is None or row.article is None or user is None:
        return 0
    return pictures_import(agency_item=row, by=user)


def pictures_fetch_after_commit(row: AgencyItem, by: AbstractBaseUser) -> None:
    """Queue the fetching of the item's pictures once the transaction commits."""
    transaction.on_commit(partial(fetch_pictures.enqueue, row.pk, by.pk))
