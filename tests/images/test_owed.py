"""The renditions owed are rows, not jobs: an image records the set it was asked
for and who holds it, a job completes what a set misses, and the sweep queues
every set that no live job carries."""

import socket
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks import default_task_backend

from articles.services import image_save
from images.models import Image
from images.renditions import renditions_missing, wanted
from images.tasks import MAX_TRIES, make_renditions, renditions_sweep
from tests.factories import SuperuserFactory
from tests.images.pictures import photo_bytes, upload
from tests.images.test_admin import ADD_URL, image_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(settings):
    """A backend that keeps what is enqueued instead of running it."""
    settings.TASKS = {
        "default": {
            "BACKEND": "django_tasks.backends.dummy.DummyBackend",
            "QUEUES": settings.TASK_QUEUES,
        }
    }
    default_task_backend.clear()
    yield default_task_backend
    default_task_backend.clear()


@pytest.fixture
def queue_down(settings):
    """The task queue's Redis is unreachable (a port nothing listens on)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.TASKS = {
        "default": {
            "BACKEND": "django_tasks_rq.RQBackend",
            "QUEUES": settings.TASK_QUEUES,
        }
    }
    settings.RQ_QUEUES = {
        name: {"URL": f"redis://127.0.0.1:{port}/0"} for name in settings.TASK_QUEUES
    }


def uploaded(django_capture_on_commit_callbacks, size=(1300, 800)) -> Image:
    with django_capture_on_commit_callbacks(execute=True):
        image = image_save(
            image=Image(file=upload(photo_bytes(size)), title_ar="صورة"),
            by=SuperuserFactory(),
        )
    image.refresh_from_db()
    return image


def test_an_upload_owes_its_set_until_a_job_completes_it(
    queued, django_capture_on_commit_callbacks
):
    """The upload records the set as owed; the job makes it and clears the debt."""
    image = uploaded(django_capture_on_commit_callbacks)
    assert image.renditions_owed_since is not None
    assert image.renditions_leased_until > timezone.now()  # the queued job's
    made = make_renditions.call(image.pk)
    image.refresh_from_db()
    assert made == len(wanted(image)) > 0
    assert image.renditions_owed_since is None
    assert renditions_missing(image) == []


def test_a_job_completes_a_partial_set_without_remaking_the_rest(
    queued, django_capture_on_commit_callbacks
):
    """A set left half made (a worker killed) is completed: the renditions made
    before stay as they are, only the missing ones are written."""
    image = uploaded(django_capture_on_commit_callbacks)
    make_renditions.call(image.pk)
    everything = image.renditions.count()
    # The state a killed job leaves: the set still owed, 12 renditions made.
    owed_since = timezone.now()
    Image.objects.filter(pk=image.pk).update(renditions_owed_since=owed_since)
    image.renditions.update(made_for=owed_since)
    kept = list(image.renditions.order_by("pk").values_list("pk", flat=True)[:12])
    image.renditions.exclude(pk__in=kept).delete()
    assert make_renditions.call(image.pk) == everything - 12
    assert set(kept) <= set(image.renditions.values_list("pk", flat=True))
    assert image.renditions.count() == everything


def test_a_new_focal_point_remakes_the_renditions_of_the_old_one(
    queued, django_capture_on_commit_callbacks
):
    """Renditions made for an earlier request of the set are stale and remade."""
    image = uploaded(django_capture_on_commit_callbacks)
    make_renditions.call(image.pk)
    before = set(image.renditions.values_list("pk", flat=True))
    image.focal_x = 0.1
    with django_capture_on_commit_callbacks(execute=True):
        image_save(image=image, by=SuperuserFactory())
    make_renditions.call(image.pk)
    after = set(image.renditions.values_list("pk", flat=True))
    assert before.isdisjoint(after) and len(after) == len(before)


def test_an_upload_while_the_queue_is_down_is_saved_and_owes_its_set(
    admin_client, queue_down, django_capture_on_commit_callbacks, caplog
):
    """With Redis unreachable the admin's upload still succeeds; the image says
    its renditions are owed and no job holds it, and the outage is logged once."""
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            response = admin_client.post(ADD_URL, image_form(upload(photo_bytes())))
        assert response.status_code == 302
    assert Image.objects.count() == 2
    for image in Image.objects.all():
        assert image.renditions_owed_since is not None
        assert image.renditions_leased_until is None
        assert not image.renditions.exists()
    assert caplog.text.count("could not be queued") == 1


def test_the_sweep_queues_the_sets_no_job_carries(
    queued, django_capture_on_commit_callbacks
):
    """A set whose lease ran out (its job lost) is queued again, once."""
    image = uploaded(django_capture_on_commit_callbacks)
    queued.clear()
    assert renditions_sweep() == 0  # the upload's job holds it
    Image.objects.filter(pk=image.pk).update(
        renditions_leased_until=timezone.now() - timedelta(seconds=1)
    )
    assert renditions_sweep() == 1
    assert renditions_sweep() == 0
    [job] = queued.results
    assert (job.task.name, job.args) == ("make_renditions", [image.pk])


def test_the_sweep_leaves_a_set_that_failed_its_last_try(
    queued, django_capture_on_commit_callbacks
):
    """After its last try a set is left to administrators, not tried for ever."""
    image = uploaded(django_capture_on_commit_callbacks)
    Image.objects.filter(pk=image.pk).update(
        renditions_leased_until=None, renditions_tries=MAX_TRIES
    )
    assert renditions_sweep() == 0


def test_the_sweep_command_reports_what_it_queued(
    queued, django_capture_on_commit_callbacks, capsys
):
    """`sweep_renditions` says how many jobs it queued."""
    image = uploaded(django_capture_on_commit_callbacks)
    Image.objects.filter(pk=image.pk).update(renditions_leased_until=None)
    call_command("sweep_renditions")
    assert "1 rendition jobs queued" in capsys.readouterr().out
