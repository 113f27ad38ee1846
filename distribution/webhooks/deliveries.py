"""From a release to signed POSTs: who is told (`deliveries_make`), each try and
what follows it (`delivery_attempt`), and the sweep that catches what a lost job
or a scheduled story left (`deliveries_due`).

The deliveries are the state, the task queue only the engine: a delivery row
holds its exact body and when it is next due, so a worker that dies, a Redis that
loses its jobs, or a backend that cannot defer (the immediate one of development)
delays a delivery but never loses it; `manage.py send_webhooks` finds it.

Who is told of a release: every active endpoint subscribed to its event whose
partner may receive the story now (the one rule, `distribution.rules`). A story
taken away (unpublished, killed) is also told to every endpoint that was sent the
story before, whether or not that earlier delivery succeeded and whatever the
partner may receive today: a partner must hear of a kill above all else.
"""

import json
import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from articles.models import Article
from identity.cache import current_gate, people_in_sent
from identity.gate import IdentityGate
from identity.models import Person
from publishing.output_check import record_withheld

from ..documents import edition_document, gone_tombstone
from ..models import Delivery, DeliveryAttempt, Event, Release, WebhookEndpoint
from ..ninjs import DocumentWithheld, printed_together, tombstone
from ..rules import partner_may_receive
from .sending import ANSWER_KEPT, post
from .signing import signed_headers

logger = logging.getLogger(__name__)

# Seconds to wait before each new try: about a day in all (23.7 h) before a
# delivery is given up and left failed for an administrator to replay.
RETRY_DELAYS = (30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800)
# How long a try may hold a delivery before another worker may take it.
LEASE = timedelta(minutes=2)
# How long a rotated-out secret still signs deliveries.
ROTATION_OVERLAP = timedelta(hours=24)
# How far back the sweep looks for releases that were never fanned out.
SWEEP_WINDOW = timedelta(days=1)
_TAKEN_AWAY = (Event.UNPUBLISHED, Event.KILLED)


def _recipients(release: Release) -> list[WebhookEndpoint]:
    endpoints = WebhookEndpoint.objects.filter(
        active=True, partner__active=True
    ).select_related("partner")
    subscribed = [e for e in endpoints if release.event in e.events]
    if not subscribed:
        return []
    told_before: set[int] = set()
    if release.event in _TAKEN_AWAY:
        told_before = set(
            Delivery.objects.filter(
                release__article_id=release.article_id,
                release__language=release.language,
            ).values_list("endpoint_id", flat=True)
        )
    if release.gone:
        # The story is deleted: only those who were sent it hear of it.
        return [endpoint for endpoint in subscribed if endpoint.pk in told_before]
    article = release.article
    return [
        endpoint
        for endpoint in subscribed
        if endpoint.pk in told_before or partner_may_receive(endpoint.partner, article)
    ]


def _body(release: Release, *, at: datetime, withheld: bool = False) -> str:
    """The event as JSON: its type, when it was sent first, and the story's
    document in that edition (a tombstone when it was taken away, or when the
    output check withholds it, or when the caller has found it `withheld`: a
    partner removes its copy rather than keep one that may name a protected
    person)."""
    base_url = settings.SITE_URL
    article = Article.objects.for_detail().filter(pk=release.article_id).first()
    if article is None:  # deleted since
        document = gone_tombstone(release, base_url=base_url)
    elif withheld:
        document = tombstone(article, release.language, base_url=base_url)
    else:
        try:
            document = edition_document(
                article, release.language, release.event, base_url=base_url
            )
        except DocumentWithheld:
            document = tombstone(article, release.language, base_url=base_url)
    payload = {
        "type": f"story.{release.event}",
        "timestamp": at.isoformat().replace("+00:00", "Z"),
        "data": {
            "uri": document["uri"],
            "version": document["version"],
            "language": release.language,
            "event": release.event,
            "document": document,
        },
    }
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def _taken_away_since(release: Release, now: datetime) -> bool:
    """Whether the story was unpublished or killed after this release was made
    (a scheduled story withdrawn before its time): nothing is left to announce."""
    return (
        release.event not in _TAKEN_AWAY
        and Release.objects.filter(
            article_id=release.article_id,
            language=release.language,
            event__in=_TAKEN_AWAY,
            pk__gt=release.pk,
            visible_at__lte=now,
        ).exists()
    )


def deliveries_make(release: Release) -> list[Delivery]:
    """Make the deliveries of `release` that do not exist yet (making them twice
    makes nothing more) and return them, due now."""
    now = timezone.now()
    if release.visible_at > now:
        return []  # a scheduled story: its time has not come
    done = set(release.deliveries.values_list("endpoint_id", flat=True))
    endpoints = [] if _taken_away_since(release, now) else _recipients(release)
    endpoints = [e for e in endpoints if e.pk not in done]
    made: list[Delivery] = []
    body = _body(release, at=now) if endpoints else ""
    for endpoint in endpoints:
        try:
            with transaction.atomic():
                made.append(
                    Delivery.objects.create(
                        endpoint=endpoint,
                        release=release,
                        event=release.event,
                        message_id=_new_message_id(),
                        body=body,
                        next_attempt_at=now,
                    )
                )
        except IntegrityError:
            continue  # another worker made it meanwhile
    # Marked only once its deliveries exist: a worker dying before this leaves
    # the release to the sweep, which makes only what is missing.
    Release.objects.filter(pk=release.pk).update(fanned_out_at=now)
    return made


def _new_message_id() -> str:
    return f"msg_{uuid.uuid4().hex}"


def _as_sendable_now(delivery: Delivery) -> None:
    """Check the stored body with the gate as it is now, as it leaves: one made
    before a person was protected (a partner that was down, a replay of an older
    delivery) is replaced, here and in storage, by the story's tombstone under a
    new id, so a receiver that handled the old one does not discard it as seen."""
    gate = current_gate()
    if not gate:
        return
    people = people_in_delivery(gate, delivery.body)
    if not people:
        return
    record_withheld(f"webhook delivery {delivery.message_id}", people, gate)
    delivery.body = _body(delivery.release, at=timezone.now(), withheld=True)
    delivery.message_id = _new_message_id()
    delivery.save(update_fields=["body", "message_id"])


def people_in_delivery(gate: IdentityGate, body: str) -> list[Person]:
    """The protected people a delivery's body names, read as the partner prints
    the document it carries."""
    try:
        document = json.loads(body)["data"]["document"]
    except (ValueError, KeyError, TypeError):
        document = {}
    together = printed_together(document) if isinstance(document, dict) else []
    return people_in_sent(gate, body, together)


def _secrets(endpoint: WebhookEndpoint) -> list[str]:
    in_use = [endpoint.secret]
    expires = endpoint.previous_secret_expires_at
    if endpoint.previous_secret and expires and expires > timezone.now():
        in_use.append(endpoint.previous_secret)
    return in_use


def delivery_attempt(delivery_id: int) -> Delivery | None:
    """Try one delivery if it is due, record the answer, and say when to try
    again (None when it was not due: done already, or another worker has it)."""
    now = timezone.now()
    # Taking the lease is the lock: a second job for the same delivery finds it
    # not due and does nothing, and no row stays locked across the network call.
    taken = Delivery.objects.filter(
        pk=delivery_id, status=Delivery.Status.PENDING, next_attempt_at__lte=now
    ).update(next_attempt_at=now + LEASE)
    if not taken:
        return None
    delivery = Delivery.objects.select_related("endpoint", "release").get(
        pk=delivery_id
    )
    _as_sendable_now(delivery)
    endpoint = delivery.endpoint
    headers = signed_headers(
        message_id=delivery.message_id,
        body=delivery.body,
        secrets_in_use=_secrets(endpoint),
    )
    answer = post(endpoint.url, delivery.body.encode(), headers)
    DeliveryAttempt.objects.create(
        delivery=delivery,
        status_code=answer.status_code,
        response=answer.body[:ANSWER_KEPT],
        error=answer.error,
        duration_ms=answer.duration_ms,
    )
    delivery.attempts += 1
    if answer.delivered:
        delivery.status = Delivery.Status.DELIVERED
        delivery.delivered_at = timezone.now()
        delivery.next_attempt_at = None
    elif delivery.attempts > len(RETRY_DELAYS):
        delivery.status = Delivery.Status.FAILED
        delivery.next_attempt_at = None
        logger.warning(
            "Webhook delivery %s to %s failed after %s tries: %s",
            delivery.message_id,
            endpoint.url,
            delivery.attempts,
            answer.error or answer.status_code,
        )
    else:
        delay = RETRY_DELAYS[delivery.attempts - 1]
        delivery.next_attempt_at = timezone.now() + timedelta(seconds=delay)
    delivery.save(
        update_fields=["attempts", "status", "delivered_at", "next_attempt_at"]
    )
    return delivery


def deliveries_due(*, now: datetime | None = None) -> QuerySet:
    """Deliveries waiting whose time has come, oldest first."""
    return Delivery.objects.filter(
        status=Delivery.Status.PENDING, next_attempt_at__lte=now or timezone.now()
    ).order_by("next_attempt_at", "pk")


def releases_to_fan_out(*, now: datetime | None = None) -> QuerySet:
    """Releases of the last day, visible now, never fanned out (a scheduled
    story whose time came, a job lost or not yet run)."""
    now = now or timezone.now()
    return Release.objects.filter(
        visible_at__lte=now,
        visible_at__gte=now - SWEEP_WINDOW,
        fanned_out_at__isnull=True,
    ).order_by("visible_at", "pk")
