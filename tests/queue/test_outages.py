"""Redis goes away, restarts or forgets everything: no rendition and no webhook
delivery is lost. The database is the record of the work owed; Redis keeps its
jobs across a restart (its append-only file), and the sweeps queue or send what
no job carries. Each test counts what arrived."""

import time

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django_rq import get_queue

from articles.services import article_publish, image_save
from core.roles import EDITORS
from distribution.models import Delivery, Event, Partner, WebhookEndpoint
from distribution.services import partner_save
from distribution.webhooks.services import webhook_save
from images.models import Image
from images.renditions import renditions_missing, wanted
from tests.factories import DraftArticleFactory, SuperuserFactory, member_of
from tests.images.pictures import photo_bytes, upload
from tests.images.test_admin import image_form
from tests.queue.conftest import finished, worker

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hook(receiver):
    """A partner's webhook for every event, told of every story."""
    editor = member_of(EDITORS)
    partner = partner_save(partner=Partner(name="Gulf Daily"), by=editor)
    webhook_save(
        endpoint=WebhookEndpoint(partner=partner, url=receiver.url),
        by=editor,
        events=Event.values,
    )
    return editor


def complete(image: Image) -> bool:
    image.refresh_from_db()
    return (
        image.renditions_owed_since is None
        and not renditions_missing(image)
        and image.renditions.count() == len(wanted(image))
    )


def uploads(count: int) -> list[Image]:
    chief = SuperuserFactory()
    return [uploaded(chief) for _ in range(count)]


def uploaded(chief, size=(700, 400)) -> Image:
    """One upload through the service. Random noise now and then spells a
    marker the polyglot check refuses ("<svg"): such a picture is drawn again."""
    for _ in range(5):
        try:
            return image_save(
                image=Image(file=upload(photo_bytes(size)), title_ar="صورة"), by=chief
            )
        except ValidationError:
            continue
    raise AssertionError("five random pictures refused")


def test_an_upload_while_redis_is_down_gets_its_renditions_once_it_is_back(
    own_redis, media, admin_client
):
    """The admin's upload answers with its redirect while Redis is stopped; when
    Redis is back the sweep queues the set and a worker makes all of it."""
    own_redis.stop()
    response = admin_client.post(
        reverse("admin:images_image_add"), image_form(upload(photo_bytes()))
    )
    assert response.status_code == 302
    image = Image.objects.get()
    assert image.renditions_owed_since is not None and not image.renditions.exists()
    own_redis.start()
    call_command("sweep_renditions")
    finished(worker(["renditions"], own_redis.url, media))
    assert complete(image)


def test_queued_jobs_outlive_a_redis_restart(own_redis, media, hook, receiver):
    """Jobs queued before a restart (three uploads' renditions, a story's
    fan-out) are still queued after it, and workers then do every one."""
    images = uploads(3)
    article_publish(article=DraftArticleFactory(), by=hook)
    assert get_queue("renditions").count == 3
    assert get_queue("webhooks").count == 1
    own_redis.restart()
    assert get_queue("renditions").count == 3
    assert get_queue("webhooks").count == 1
    finished(worker(["renditions", "webhooks"], own_redis.url, media))
    assert [complete(image) for image in images] == [True] * 3
    assert len(receiver.received) == 1


def test_what_a_redis_that_forgot_everything_lost_the_sweeps_bring_back(
    own_redis, media, hook, receiver, settings
):
    """Redis emptied (a restart without persistence): three uploads' rendition
    jobs and three stories' fan-outs are gone from the queue; the sweeps find
    them in the database, and every set and every delivery arrives."""
    settings.RENDITIONS_LEASE_SECONDS = 1
    images = uploads(3)
    for _ in range(3):
        article_publish(article=DraftArticleFactory(), by=hook)
    own_redis.client().flushall()
    assert get_queue("renditions").count == get_queue("webhooks").count == 0
    time.sleep(1.1)  # the lost jobs' leases run out
    call_command("sweep_renditions")
    call_command("send_webhooks")
    finished(worker(["renditions", "webhooks"], own_redis.url, media))
    assert [complete(image) for image in images] == [True] * 3
    assert Delivery.objects.filter(status=Delivery.Status.DELIVERED).count() == 3
    assert len(receiver.received) == 3
