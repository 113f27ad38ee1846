"""The partners' screens, as a plain member of the roles that keep partners."""

import pytest
from django.urls import reverse

from core.roles import EDITORS, REPORTERS, SOURCE_MANAGERS
from distribution.keys import key_holder
from distribution.models import Partner, PartnerKey
from tests.factories import SourceFactory, member_of

pytestmark = pytest.mark.django_db


def add_url() -> str:
    return reverse("admin:distribution_partner_add")


def change_url(partner) -> str:
    return reverse("admin:distribution_partner_change", args=[partner.pk])


def key_url(partner) -> str:
    return reverse("admin:distribution_partner_key_create", args=[partner.pk])


@pytest.mark.parametrize("role", [EDITORS, SOURCE_MANAGERS])
def test_a_role_member_adds_a_partner_with_its_rights(client, role):
    client.force_login(member_of(role))
    agency = SourceFactory(name="وكالة")
    response = client.post(
        add_url(),
        {
            "name": "Gulf Daily",
            "active": "on",
            "rate_limit": "60",
            "contact": "desk@gulf.example",
            "rights_sources": [agency.pk],
            "keys-TOTAL_FORMS": "0",
            "keys-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    partner = Partner.objects.get(name="Gulf Daily")
    assert list(partner.rights_sources.all()) == [agency]


def test_a_new_key_is_shown_once(client):
    editor = member_of(EDITORS)
    client.force_login(editor)
    partner = Partner.objects.create(name="Gulf Daily")
    response = client.post(key_url(partner))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    key = PartnerKey.objects.get(partner=partner)
    full = response.context["full_key"]
    assert full in response.content.decode()
    assert key_holder(full) == key
    # The partner's page names the key by its prefix only, from then on.
    page = client.get(change_url(partner)).content.decode()
    assert key.prefix in page
    assert full not in page


def test_a_key_is_revoked_from_the_partners_page(client):
    client.force_login(member_of(EDITORS))
    partner = Partner.objects.create(name="Gulf Daily")
    response = client.post(key_url(partner))
    full = response.context["full_key"]
    key = PartnerKey.objects.get(partner=partner)
    revoke = reverse("admin:distribution_partner_key_revoke", args=[partner.pk, key.pk])
    assert client.post(revoke).status_code == 302
    assert key_holder(full) is None


def test_a_third_key_is_refused_with_a_message(client):
    client.force_login(member_of(EDITORS))
    partner = Partner.objects.create(name="Gulf Daily")
    client.post(key_url(partner))
    client.post(key_url(partner))
    response = client.post(key_url(partner), follow=True)
    assert PartnerKey.objects.filter(partner=partner).count() == 2
    assert "revoke" in response.content.decode().lower() or "أبطل" in (
        response.content.decode()
    )


def test_making_a_key_needs_a_post(client):
    client.force_login(member_of(EDITORS))
    partner = Partner.objects.create(name="Gulf Daily")
    assert client.get(key_url(partner)).status_code == 405
    assert not PartnerKey.objects.exists()


def test_a_reporter_sees_no_partners(client):
    client.force_login(member_of(REPORTERS))
    partner = Partner.objects.create(name="Gulf Daily")
    assert client.get(change_url(partner)).status_code == 403
    client.post(key_url(partner))
    assert not PartnerKey.objects.exists()
