"""What the partners receive, read for `audit_identities` (identity.exits): every
public story's document in each edition, as the API would serve it, and every
stored webhook body a partner holds or is about to be sent."""

from collections.abc import Iterator

from django.conf import settings
from django.db.models import OuterRef, Subquery

from articles.models import Article
from identity.exits import Reading
from identity.gate import IdentityGate
from publishing.output_check import printable_url

from .models import Delivery
from .ninjs import DocumentWithheld, ninjs_document
from .ninjs.document import document_uri
from .webhooks.deliveries import people_in_delivery

# Addresses in the documents read: only their paths are reported.
_BASE_URL = "https://audit.invalid"


def api_documents(gate: IdentityGate) -> Iterator[Reading]:
    """Each public story's ninjs document in each edition it has."""
    for article in Article.objects.published().for_detail().iterator(chunk_size=100):
        for code, _name in settings.LANGUAGES:
            if not getattr(article, f"headline_{code}", ""):
                continue
            address = printable_url(gate, document_uri(article, code, base_url=""))
            try:
                ninjs_document(article, code, base_url=_BASE_URL)
            except DocumentWithheld as withheld:
                yield Reading(address, withheld.people, note="withheld")
            else:
                yield Reading(address)


def webhook_bodies(gate: IdentityGate) -> Iterator[Reading]:
    """Each stored delivery body that is a partner's last word on a story (the
    latest sent to its endpoint for that story and edition) or is still to be
    sent. One waiting is checked again as it leaves, so it is reported, not
    failed: its tombstone goes instead."""
    later = Delivery.objects.filter(
        endpoint=OuterRef("endpoint"),
        release__article_id=OuterRef("release__article_id"),
        release__language=OuterRef("release__language"),
        created_at__gt=OuterRef("created_at"),
    )
    rows = (
        Delivery.objects.annotate(superseded=Subquery(later.values("pk")[:1]))
        .filter(superseded__isnull=True)
        .select_related("endpoint__partner")
        .order_by("pk")
    )
    for delivery in rows.iterator(chunk_size=200):
        people = people_in_delivery(gate, delivery.body)
        address = f"webhook delivery #{delivery.pk} to {delivery.endpoint.partner}"
        if delivery.status == Delivery.Status.DELIVERED:
            note = "held by the partner; Send again sends its tombstone"
            yield Reading(address, people, note=note)
        else:
            note = "waiting; its tombstone is sent instead"
            yield Reading(address, people, note=note, mend=False)
