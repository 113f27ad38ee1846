"""The editors' source admin: pages, social accounts and logo uploads."""

from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from sources.models import Source
from tests.factories import SocialAccountFactory, SourceFactory

pytestmark = pytest.mark.django_db


def source_post_data(**fields) -> dict:
    data = {
        "name_ar": "الشرق الأوسط",
        "name_en": "Asharq Al-Awsat",
        "kind": Source.Kind.NEWSPAPER,
        "aliases": "",
        "country": "",
        "language": "ar",
        "homepage": "",
        "domains": "aawsat.com",
        "terms": "",
        "slug": "",
        "social_accounts-TOTAL_FORMS": "0",
        "social_accounts-INITIAL_FORMS": "0",
        "social_accounts-MIN_NUM_FORMS": "0",
        "social_accounts-MAX_NUM_FORMS": "1000",
    }
    data.update(fields)
    return data


@pytest.mark.parametrize(
    "url_name", ["admin:sources_source_changelist", "admin:sources_source_add"]
)
def test_list_and_add_pages_render(admin_client, url_name):
    """The source list and add page open for an editor."""
    SourceFactory(country="Saudi Arabia")
    assert admin_client.get(reverse(url_name)).status_code == 200


def test_change_page_renders_with_social_accounts(admin_client):
    """A source's page opens and lists its social accounts."""
    account = SocialAccountFactory()
    url = reverse("admin:sources_source_change", args=[account.source.pk])
    response = admin_client.get(url)
    assert response.status_code == 200
    assert account.handle in response.content.decode()


def test_list_shows_name_kind_and_country(admin_client):
    """The source list has columns for name, kind and country."""
    SourceFactory(country="الإمارات")
    html = admin_client.get(reverse("admin:sources_source_changelist")).content.decode()
    for column in ("column-name", "column-kind", "column-country"):
        assert column in html
    assert "الإمارات" in html


def test_adding_a_source_with_a_social_account(admin_client):
    """One POST saves a source and its X account, the @ dropped from the handle."""
    data = source_post_data(
        **{
            "social_accounts-TOTAL_FORMS": "1",
            "social_accounts-0-platform": "x",
            "social_accounts-0-handle": "@aawsat_News",
            "social_accounts-0-url": "",
        }
    )
    response = admin_client.post(reverse("admin:sources_source_add"), data)
    assert response.status_code == 302
    source = Source.objects.get()
    assert source.social_accounts.get().handle == "aawsat_News"


def test_logo_is_stored_without_exif(admin_client):
    """An uploaded logo is stored as a re-encoded image without its EXIF data."""
    exif = Image.Exif()
    exif[0x010F] = "Camera maker"
    buffer = BytesIO()
    Image.new("RGB", (32, 32), "blue").save(buffer, "JPEG", exif=exif)
    logo = SimpleUploadedFile("logo.jpg", buffer.getvalue(), content_type="image/jpeg")
    response = admin_client.post(
        reverse("admin:sources_source_add"), source_post_data(logo=logo)
    )
    assert response.status_code == 302
    with Image.open(Source.objects.get().logo) as stored:
        assert dict(stored.getexif()) == {}


def test_non_image_logo_is_refused(admin_client):
    """A logo that is not an image is refused with a message; nothing is saved."""
    logo = SimpleUploadedFile("logo.png", b"not a picture", content_type="image/png")
    response = admin_client.post(
        reverse("admin:sources_source_add"), source_post_data(logo=logo)
    )
    assert response.status_code == 200
    assert "logo" in response.context["adminform"].form.errors
    assert not Source.objects.exists()
