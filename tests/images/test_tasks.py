"""Renditions as background work: enqueued after commit, tried again with backoff,
and a last failure left for administrators on the task queue's pages."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks import default_task_backend

from articles.services import image_save
from core.roles import EDITORS
from images.models import Image, Rendition
from images.tasks import RETRY_DELAYS, make_renditions
from tests.factories import SuperuserFactory, member_of
from tests.images.pictures import photo_bytes, upload

pytestmark = pytest.mark.django_db

DUMMY = {
    "default": {
        "BACKEND": "django_tasks.backends.dummy.DummyBackend",
        "QUEUES": ["default", "renditions"],
    }
}


@pytest.fixture
def chief():
    return SuperuserFactory(username="chief")


@pytest.fixture
def queued(settings):
    """A backend that keeps what is enqueued instead of running it."""
    settings.TASKS = DUMMY
    default_task_backend.clear()
    yield default_task_backend
    default_task_backend.clear()


def saved_image(chief, django_capture_on_commit_callbacks) -> Image:
    with django_capture_on_commit_callbacks(execute=True):
        return image_save(
            image=Image(file=upload(photo_bytes((400, 300))), title_ar="صورة"),
            by=chief,
        )


def broken(image: Image) -> Image:
    """The image's original gone from storage: every try to decode it fails."""
    image.file.storage.delete(image.file.name)
    return image


def test_an_upload_enqueues_its_renditions_after_commit(
    chief, queued, django_capture_on_commit_callbacks
):
    """The upload's request only enqueues the renditions, once it has committed."""
    image = saved_image(chief, django_capture_on_commit_callbacks)
    [job] = queued.results
    assert (job.task.name, job.task.queue_name) == ("make_renditions", "renditions")
    assert job.args == [image.pk]
    assert not Rendition.objects.exists()


def test_the_task_makes_the_renditions(
    chief, queued, django_capture_on_commit_callbacks
):
    """Run by a worker, the enqueued task makes every rendition."""
    image = saved_image(chief, django_capture_on_commit_callbacks)
    made = make_renditions.call(image.pk)
    assert made > 0 and image.renditions.count() == made


def test_a_failed_try_is_enqueued_again_after_a_delay(
    chief, queued, django_capture_on_commit_callbacks
):
    """A failure puts the task back, due after the first delay, as its next try."""
    image = broken(saved_image(chief, django_capture_on_commit_callbacks))
    queued.clear()
    before = timezone.now()
    assert make_renditions.call(image.pk) == 0
    [retry] = queued.results
    assert retry.args == [image.pk, 2]
    assert retry.task.run_after >= before + timedelta(seconds=RETRY_DELAYS[0])


def test_each_try_waits_longer_than_the_last():
    """The delays between tries grow."""
    assert list(RETRY_DELAYS) == sorted(set(RETRY_DELAYS))


def test_the_last_try_fails_the_job(chief, queued, django_capture_on_commit_callbacks):
    """After its last try the task raises: the worker keeps it as failed, with the
    traceback, and enqueues nothing more."""
    image = broken(saved_image(chief, django_capture_on_commit_callbacks))
    queued.clear()
    with pytest.raises(OSError):
        make_renditions.call(image.pk, len(RETRY_DELAYS) + 1)
    assert queued.results == []


def test_a_failure_without_a_queue_leaves_the_upload_saved(
    chief, media, django_capture_on_commit_callbacks, caplog
):
    """With the immediate backend (development) a failure is logged, the image
    stays, and its pages show the original."""
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        image = image_save(
            image=Image(file=upload(photo_bytes((400, 300))), title_ar="صورة"),
            by=chief,
        )
    broken(image)
    for callback in callbacks:
        callback()
    assert Image.objects.filter(pk=image.pk).exists()
    assert not Rendition.objects.exists()
    assert f"Renditions of image {image.pk} could not be made" in caplog.text


def test_an_image_deleted_before_its_turn_is_skipped(queued):
    """The task of an image deleted meanwhile does nothing."""
    assert make_renditions.call(123456) == 0


def test_superusers_see_the_task_queue(client, chief):
    """The administrator opens the queue's dashboard (failed jobs are listed there)."""
    client.force_login(chief)
    assert client.get("/admin/rq/").status_code == 200


def test_editors_may_not_open_the_task_queue(client):
    """A member of the editors' group is refused the queue's pages."""
    client.force_login(member_of(EDITORS))
    assert client.get("/admin/rq/").status_code == 403
    assert client.get("/admin/rq/queues/0/failed/").status_code == 403


def test_anonymous_visitors_are_sent_to_sign_in(client):
    """Without a session the queue's pages ask to sign in."""
    response = client.get("/admin/rq/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
