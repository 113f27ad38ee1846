"""Webhooks: a partner's endpoint is told of publish, update, correction,
unpublish and kill, in order, signed so the Standard Webhooks library verifies
each delivery; only stories the partner may receive; a kill even after a failed
delivery; tries again with backoff for a day; scheduled stories at their time;
replays from the admin; nothing sent to an address inside our network."""

import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone, translation
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from articles.audit_actions import Action
from articles.models import Article
from articles.services import article_kill, article_publish, correction_add
from audit.models import AuditEvent
from core import events
from core.roles import EDITORS
from distribution.models import Delivery, Event, Partner, Release, WebhookEndpoint
from distribution.services import partner_save
from distribution.webhooks.deliveries import RETRY_DELAYS, delivery_attempt
from distribution.webhooks.services import (
    delivery_replay,
    webhook_save,
    webhook_secret_rotate,
)
from publishing.audit_actions import Action as OutputAction
from sources.models import Source
from tests.distribution.test_ninjs import LEGAL, PSEUDONYM
from tests.factories import (
    AttributionFactory,
    DraftArticleFactory,
    ImageFactory,
    ProtectedPersonFactory,
    SourceFactory,
    member_of,
)

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.fixture
def editor():
    return member_of(EDITORS)


@pytest.fixture
def partner(editor):
    return partner_save(partner=Partner(name="Gulf Daily"), by=editor)


@pytest.fixture
def hook(partner, editor, receiver):
    """The partner's webhook for every event, and its secret."""
    endpoint, secret = webhook_save(
        endpoint=WebhookEndpoint(partner=partner, url=receiver.url),
        by=editor,
        events=Event.values,
    )
    return endpoint, secret


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run what a change announces after its commit (releases, then the tasks
    the immediate backend runs at once), as production does."""

    def run(change, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return change(*args, **kwargs)

    return run


def verified(receiver, secret) -> list[dict]:
    """Every delivery received, each checked by the Standard Webhooks library."""
    return [
        Webhook(secret).verify(request.body, request.headers)
        for request in receiver.received
    ]


def published(editor, commits, article=None) -> Article:
    article = article or DraftArticleFactory()
    commits(article_publish, article=article, by=editor)
    article.refresh_from_db()
    return article


# ------------------------------------------------------------------ what is sent


def test_publish_correct_kill_arrive_in_order_and_verified(
    hook, editor, commits, receiver
):
    _endpoint, secret = hook
    story = published(editor, commits)
    commits(
        correction_add,
        article=story,
        by=editor,
        kind="correction",
        text_ar="صُحّح تاريخ افتتاح الجسر.",
    )
    story.refresh_from_db()
    commits(article_kill, article=story, by=editor, reason="خطأ جسيم")
    events = verified(receiver, secret)
    assert [e["type"] for e in events] == [
        "story.published",
        "story.corrected",
        "story.killed",
    ]
    versions = [int(e["data"]["version"]) for e in events]
    assert versions == sorted(versions) and len(set(versions)) == 3
    assert events[-1]["data"]["document"]["pubStatus"] == "canceled"
    assert "headlines" not in events[-1]["data"]["document"]
    ids = [r.headers["webhook-id"] for r in receiver.received]
    assert len(set(ids)) == 3


def test_a_published_event_carries_the_ninjs_document(hook, editor, commits, receiver):
    story = published(editor, commits)
    (event,) = verified(receiver, hook[1])
    document = event["data"]["document"]
    assert document["uri"].endswith(f"/api/ninjs/{story.pk}/ar")
    assert document["headlines"][0]["value"] == story.headline_ar
    assert event["data"]["language"] == "ar"


def test_a_tampered_delivery_fails_verification(hook, editor, commits, receiver):
    published(editor, commits)
    request = receiver.received[0]
    with pytest.raises(WebhookVerificationError):
        Webhook(hook[1]).verify(request.body + b" ", request.headers)


def test_only_chosen_events_are_sent(partner, editor, commits, receiver):
    _endpoint, secret = webhook_save(
        endpoint=WebhookEndpoint(partner=partner, url=receiver.url),
        by=editor,
        events=[Event.KILLED],
    )
    story = published(editor, commits)
    assert receiver.received == []
    commits(article_kill, article=story, by=editor, reason="سحب")
    assert [e["type"] for e in verified(receiver, secret)] == ["story.killed"]


# ------------------------------------------------------------------ rights


def test_a_partner_without_the_agencys_rights_is_never_told(
    hook, editor, commits, receiver
):
    agency = SourceFactory(name="وكالة الأنباء", kind=Source.Kind.AGENCY)
    story = DraftArticleFactory()
    AttributionFactory(article=story, source=agency)
    story = published(editor, commits, story)
    commits(article_kill, article=story, by=editor, reason="سحب")
    assert receiver.received == []
    assert not Delivery.objects.exists()


def test_a_partner_holding_the_agencys_rights_is_told(
    hook, partner, editor, commits, receiver
):
    agency = SourceFactory(name="وكالة الأنباء", kind=Source.Kind.AGENCY)
    partner.rights_sources.add(agency)
    story = DraftArticleFactory()
    AttributionFactory(article=story, source=agency)
    published(editor, commits, story)
    assert [e["type"] for e in verified(receiver, hook[1])] == ["story.published"]


def test_a_planted_legal_name_sends_a_tombstone_not_the_name(
    hook, editor, commits, receiver
):
    """A legal name written around every door (a raw update), then announced as
    a change: the partner is told to take the story down, and never the name."""
    ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)
    story = published(editor, commits)
    Article.objects.filter(pk=story.pk).update(
        summary_ar=f"قال {LEGAL} إن الجسر تأخر.", version=F("version") + 1
    )
    events.story_changed.send(sender=Article, instance=story, action=Action.CHANGED)
    first, planted = verified(receiver, hook[1])
    assert first["data"]["document"]["headlines"]
    assert planted["type"] == "story.updated"
    assert planted["data"]["document"]["pubStatus"] == "withheld"
    assert "headlines" not in planted["data"]["document"]
    assert "المنصوري" not in receiver.received[1].body.decode()


# ------------------------------------------------------------------ failures


def test_a_failed_delivery_is_tried_again_later(hook, editor, commits, receiver):
    receiver.answers = [503]
    published(editor, commits)
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.PENDING
    assert delivery.attempts == 1
    wait = delivery.next_attempt_at - timezone.now()
    assert (
        timedelta(seconds=RETRY_DELAYS[0] - 5)
        < wait
        <= timedelta(seconds=RETRY_DELAYS[0])
    )
    (attempt,) = delivery.tries.all()
    assert attempt.status_code == 503 and attempt.response == "not now"


def test_the_sweep_sends_what_is_due(hook, editor, commits, receiver):
    receiver.answers = [500]
    published(editor, commits)
    Delivery.objects.update(next_attempt_at=timezone.now())
    call_command("send_webhooks")
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.DELIVERED
    assert delivery.attempts == 2
    first, second = receiver.received
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert first.body == second.body


def test_a_delivery_is_given_up_after_about_a_day_of_tries(
    hook, editor, commits, receiver
):
    receiver.answers = [500] * (len(RETRY_DELAYS) + 1)
    published(editor, commits)
    delivery = Delivery.objects.get()
    for _try in RETRY_DELAYS:
        Delivery.objects.update(next_attempt_at=timezone.now())
        delivery_attempt(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED
    assert delivery.attempts == len(RETRY_DELAYS) + 1
    assert (
        timedelta(hours=20) < timedelta(seconds=sum(RETRY_DELAYS)) < timedelta(hours=25)
    )


def test_a_kill_goes_out_even_after_a_failed_delivery(
    hook, partner, editor, commits, receiver
):
    receiver.answers = [500]
    story = published(editor, commits)
    # Meanwhile the partner lost the story's section: the kill reaches it still.
    partner.sections.add(story.section.__class__.objects.create(name_ar="رياضة"))
    commits(article_kill, article=story, by=editor, reason="خطأ جسيم")
    types = [json.loads(r.body)["type"] for r in receiver.received]
    assert types == ["story.published", "story.killed"]
    kill = Delivery.objects.get(event=Event.KILLED)
    assert kill.status == Delivery.Status.DELIVERED
    assert Delivery.objects.get(event=Event.PUBLISHED).status == "pending"


def test_a_redirect_is_a_failed_try(hook, editor, commits, receiver):
    receiver.answers = [302]
    receiver.headers_to_send = {"Location": "http://127.0.0.1:9/elsewhere"}
    published(editor, commits)
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.PENDING
    assert delivery.tries.get().status_code == 302
    assert len(receiver.received) == 1


def test_an_address_inside_our_network_is_never_called(
    hook, editor, commits, receiver, settings
):
    settings.OUTBOUND_ALLOW_PRIVATE_ADDRESSES = False
    with translation.override("en"):
        published(editor, commits)
    assert receiver.received == []
    attempt = Delivery.objects.get().tries.get()
    assert attempt.status_code is None
    assert "not on the public internet" in attempt.error


# ------------------------------------------------------------------ time


def test_a_scheduled_story_is_told_at_its_time(hook, editor, commits, receiver):
    story = DraftArticleFactory()
    commits(
        article_publish,
        article=story,
        by=editor,
        at=timezone.now() + timedelta(hours=2),
    )
    call_command("send_webhooks")
    assert receiver.received == []
    # Two hours later.
    Release.objects.update(visible_at=timezone.now() - timedelta(seconds=1))
    call_command("send_webhooks")
    assert [e["type"] for e in verified(receiver, hook[1])] == ["story.published"]
    call_command("send_webhooks")
    assert len(receiver.received) == 1  # nothing twice


# ------------------------------------------------------------------ secrets


def test_a_rotated_secret_signs_beside_the_old_for_a_day(
    hook, editor, commits, receiver
):
    endpoint, old = hook
    new = webhook_secret_rotate(endpoint=endpoint, by=editor)
    assert new != old and new.startswith("whsec_")
    published(editor, commits)
    request = receiver.received[0]
    Webhook(old).verify(request.body, request.headers)
    Webhook(new).verify(request.body, request.headers)


def test_after_the_overlap_only_the_new_secret_signs(hook, editor, commits, receiver):
    endpoint, old = hook
    new = webhook_secret_rotate(endpoint=endpoint, by=editor)
    WebhookEndpoint.objects.update(
        previous_secret_expires_at=timezone.now() - timedelta(seconds=1)
    )
    published(editor, commits)
    request = receiver.received[0]
    Webhook(new).verify(request.body, request.headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(old).verify(request.body, request.headers)


def test_an_address_without_https_is_refused(partner, editor, settings):
    settings.WEBHOOKS_ALLOW_HTTP = False
    with pytest.raises(ValidationError) as refusal:
        webhook_save(
            endpoint=WebhookEndpoint(partner=partner, url="http://partner.example/in"),
            by=editor,
            events=[Event.PUBLISHED],
        )
    assert "https://" in str(refusal.value)
    assert not WebhookEndpoint.objects.exists()


def test_a_webhook_needs_an_event(partner, editor):
    with pytest.raises(ValidationError):
        webhook_save(
            endpoint=WebhookEndpoint(partner=partner, url="https://partner.example/in"),
            by=editor,
            events=[],
        )


# ------------------------------------------------------------------ replay


def test_a_replay_sends_the_same_message_again(hook, editor, commits, receiver):
    published(editor, commits)
    delivery = Delivery.objects.get()
    commits(delivery_replay, delivery=delivery, by=editor)
    first, again = receiver.received
    assert first.headers["webhook-id"] == again.headers["webhook-id"]
    assert first.body == again.body
    assert AuditEvent.objects.filter(
        action="webhook_replayed", message=delivery.message_id
    ).exists()


def named_then_protected(editor, commits) -> Article:
    """A story naming someone who was not protected when it went out; protected
    since."""
    story = DraftArticleFactory(summary_ar=f"قال {LEGAL} إن الجسر تأخر.")
    published(editor, commits, story)
    ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)
    return story


def test_a_replay_after_someone_is_protected_sends_a_tombstone_under_a_new_id(
    hook, editor, commits, receiver
):
    named_then_protected(editor, commits)
    delivery = Delivery.objects.get()
    commits(delivery_replay, delivery=delivery, by=editor)
    first, again = receiver.received
    assert LEGAL in first.body.decode()
    assert LEGAL not in again.body.decode()
    document = Webhook(hook[1]).verify(again.body, again.headers)["data"]["document"]
    assert document["pubStatus"] == "withheld"
    # A receiver that handled the first must not discard this one as seen.
    assert again.headers["webhook-id"] != first.headers["webhook-id"]


def test_a_delivery_waiting_for_a_partner_sends_a_tombstone_once_someone_is_protected(
    hook, editor, commits, receiver
):
    receiver.answers = [503]
    named_then_protected(editor, commits)
    delivery = Delivery.objects.get()
    made_as = delivery.message_id
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    delivery_attempt(delivery.pk)
    _refused, sent = receiver.received
    assert LEGAL not in sent.body.decode()
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED
    assert LEGAL not in delivery.body  # nor kept to be shown or sent again
    # Recorded, by the pseudonym, under the id it was made with.
    assert AuditEvent.objects.filter(
        action=OutputAction.WITHHELD, message__contains=made_as
    ).exists()


def test_a_replay_of_a_name_split_between_caption_and_credit_sends_a_tombstone(
    hook, editor, commits, receiver
):
    """The document keeps a picture's caption and credit in fields of their own;
    the partner prints them side by side, and so they are read."""
    given, family = LEGAL.split()
    story = DraftArticleFactory(
        hero_image=ImageFactory(caption_ar=given, credit=family)
    )
    published(editor, commits, story)
    ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)
    commits(delivery_replay, delivery=Delivery.objects.get(), by=editor)
    _first, again = receiver.received
    document = Webhook(hook[1]).verify(again.body, again.headers)["data"]["document"]
    assert document["pubStatus"] == "withheld"
    assert family not in again.body.decode()


def test_a_replay_of_a_romanization_spelled_out_sends_a_tombstone(
    hook, editor, commits, receiver
):
    """Sent once per version, a body is read as the doors read a field: a legal
    name romanized letter by letter, written before the person was protected."""
    spelled = "Y-o-u-s-s-e-f al-M-a-n-s-o-u-r-i"
    story = DraftArticleFactory(summary_ar=f"قال {spelled} إن الجسر تأخر.")
    published(editor, commits, story)
    ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)
    commits(delivery_replay, delivery=Delivery.objects.get(), by=editor)
    first, again = receiver.received
    assert spelled in first.body.decode()
    document = Webhook(hook[1]).verify(again.body, again.headers)["data"]["document"]
    assert document["pubStatus"] == "withheld"
    assert spelled not in again.body.decode()


def test_a_queue_that_is_down_loses_no_delivery(
    hook, editor, commits, receiver, monkeypatch
):
    """Redis down when the story is published: the publish stands, and the sweep
    sends the event once the queue is back."""
    from distribution import tasks

    class QueueDown:
        def enqueue(self, *args, **kwargs):
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(tasks, "fan_out_release", QueueDown())
    story = published(editor, commits)
    assert story.status == "published"
    assert receiver.received == []
    monkeypatch.undo()
    call_command("send_webhooks")
    assert [e["type"] for e in verified(receiver, hook[1])] == ["story.published"]


def test_deleting_a_story_tells_who_had_it(hook, editor, commits, receiver):
    from articles.services import article_delete

    story = published(editor, commits)
    commits(article_delete, article=story, by=editor)
    events = verified(receiver, hook[1])
    assert [e["type"] for e in events] == ["story.published", "story.killed"]
    assert events[-1]["data"]["document"]["pubStatus"] == "canceled"
    assert events[-1]["data"]["uri"] == events[0]["data"]["uri"]


def test_a_scheduled_story_withdrawn_before_its_time_is_never_announced(
    hook, editor, commits, receiver
):
    from articles.services import article_unpublish

    story = DraftArticleFactory()
    commits(
        article_publish,
        article=story,
        by=editor,
        at=timezone.now() + timedelta(hours=2),
    )
    story.refresh_from_db()
    commits(article_unpublish, article=story, by=editor)
    # Two hours later, the sweep finds the scheduled release's time has come.
    Release.objects.filter(event=Event.PUBLISHED).update(
        visible_at=timezone.now() - timedelta(seconds=1)
    )
    call_command("send_webhooks")
    assert [json.loads(r.body)["type"] for r in receiver.received] in (
        [],
        ["story.unpublished"],
    )
    assert not Delivery.objects.filter(event=Event.PUBLISHED).exists()
