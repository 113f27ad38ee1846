"""The webhooks' screens, as a plain member of the roles that keep partners: a
webhook's secret is shown once, a bad address is refused on its field, deliveries
are read with their answers and replayed by an action; a reporter sees none."""

import pytest
from django.urls import reverse

from core.roles import EDITORS, REPORTERS, SOURCE_MANAGERS
from distribution.models import Delivery, Event, Partner, WebhookEndpoint
from distribution.webhooks.services import webhook_save
from tests.factories import ArticleFactory, member_of, release_of

pytestmark = pytest.mark.django_db

ADD = reverse("admin:distribution_webhookendpoint_add")
DELIVERIES = reverse("admin:distribution_delivery_changelist")


def form(partner, url="https://partner.example/in", events=(Event.PUBLISHED,)):
    return {"partner": partner.pk, "url": url, "events": list(events), "active": "on"}


@pytest.mark.parametrize("role", [EDITORS, SOURCE_MANAGERS])
def test_a_role_member_adds_a_webhook_and_sees_its_secret_once(client, role, settings):
    settings.WEBHOOKS_ALLOW_HTTP = False
    client.force_login(member_of(role))
    partner = Partner.objects.create(name="Gulf Daily")
    response = client.post(ADD, form(partner, events=[Event.PUBLISHED, Event.KILLED]))
    assert response.status_code == 200, response.content.decode()[:2000]
    assert "no-store" in response["Cache-Control"]
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.events == [Event.PUBLISHED, Event.KILLED]
    assert response.context["secret"] == endpoint.secret
    page = client.get(
        reverse("admin:distribution_webhookendpoint_change", args=[endpoint.pk])
    )
    assert page.status_code == 200
    assert endpoint.secret not in page.content.decode()


def test_an_address_without_https_is_refused_on_its_field(client, settings):
    settings.WEBHOOKS_ALLOW_HTTP = False
    client.force_login(member_of(EDITORS))
    partner = Partner.objects.create(name="Gulf Daily")
    response = client.post(ADD, form(partner, url="http://partner.example/in"))
    assert response.status_code == 200
    assert "url" in response.context["adminform"].form.errors
    assert not WebhookEndpoint.objects.exists()


def test_the_secret_is_rotated_from_the_webhooks_page(client):
    editor = member_of(EDITORS)
    client.force_login(editor)
    partner = Partner.objects.create(name="Gulf Daily")
    endpoint, old = webhook_save(
        endpoint=WebhookEndpoint(partner=partner, url="https://p.example/in"),
        by=editor,
        events=[Event.PUBLISHED],
    )
    rotate = reverse("admin:distribution_webhook_rotate", args=[endpoint.pk])
    response = client.post(rotate)
    endpoint.refresh_from_db()
    assert response.context["secret"] == endpoint.secret != old
    assert endpoint.previous_secret == old


@pytest.fixture
def delivery():
    editor = member_of(EDITORS)
    partner = Partner.objects.create(name="Gulf Daily")
    endpoint, _secret = webhook_save(
        endpoint=WebhookEndpoint(partner=partner, url="https://p.example/in"),
        by=editor,
        events=[Event.PUBLISHED],
    )
    release = release_of(ArticleFactory())
    return Delivery.objects.create(
        endpoint=endpoint,
        release=release,
        event=Event.PUBLISHED,
        message_id="msg_test",
        body="{}",
        status=Delivery.Status.FAILED,
        attempts=10,
    )


def test_deliveries_are_listed_for_an_editor(client, delivery):
    client.force_login(member_of(SOURCE_MANAGERS))
    response = client.get(DELIVERIES)
    assert response.status_code == 200
    assert "Gulf Daily" in response.content.decode()
    detail = client.get(
        reverse("admin:distribution_delivery_change", args=[delivery.pk])
    )
    assert detail.status_code == 200
    assert 'name="_save"' not in detail.content.decode()  # read only


def test_an_editor_replays_a_failed_delivery(client, delivery):
    # The new try is sent after the commit (this test's transaction never
    # commits): the delivery waits, its tries counted afresh.
    client.force_login(member_of(EDITORS))
    response = client.post(
        DELIVERIES,
        {"action": "replay", "_selected_action": [delivery.pk]},
        follow=True,
    )
    assert response.status_code == 200
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING
    assert delivery.attempts == 0


def test_a_reporter_sees_no_webhooks_or_deliveries(client, delivery):
    client.force_login(member_of(REPORTERS))
    assert client.get(DELIVERIES).status_code == 403
    assert client.get(ADD).status_code == 403


def test_a_deleted_storys_deliveries_stay_listed(client, delivery):
    from articles.models import Article

    Article.objects.filter(pk=delivery.release.article_id).delete()
    client.force_login(member_of(EDITORS))
    response = client.get(DELIVERIES)
    assert response.status_code == 200
    assert "msg_test" in response.content.decode() or "Gulf Daily" in (
        response.content.decode()
    )
    assert response.context["cl"].result_count == 1
