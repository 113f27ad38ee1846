"""The admin's Import story page."""

import pytest
from django.urls import reverse

from articles.models import Article, Status
from tests.factories import UserFactory

from .conftest import SAMPLES, sample

pytestmark = pytest.mark.django_db
URL = "/admin/articles/article/import/"


def test_page_renders_for_staff(admin_client):
    """Staff see the paste box and the upload field in the admin's look."""
    response = admin_client.get(URL)
    assert response.status_code == 200
    assert b'name="text"' in response.content and b'name="file"' in response.content
    assert reverse("admin:articles_article_import") == URL


def test_non_staff_are_sent_to_the_login(client):
    """Anonymous and non-staff users are redirected to the admin login."""
    assert client.get(URL).status_code == 302
    client.force_login(UserFactory(username="reader", is_staff=False))
    response = client.get(URL)
    assert response.status_code == 302 and "login" in response["Location"]


def test_preview_shows_what_was_recognized(admin_client, newsroom_sources):
    """The preview lists headline, posts, credits and tags, and creates nothing."""
    response = admin_client.post(URL, {"text": sample("02_ar_reuters_two_posts.txt")})
    content = response.content.decode()
    assert response.status_code == 200
    assert "أمطار غزيرة تغلق طرقاً رئيسية" in content
    assert "@meteo_center" in content and "رويترز" in content and "طقس" in content
    assert 'name="confirm"' in content
    assert Article.objects.count() == 0


def test_uploaded_windows_1256_file_is_previewed(admin_client):
    """An uploaded non-UTF-8 file is converted, with a warning."""
    with open(SAMPLES / "09_ar_windows1256.txt", "rb") as upload:
        response = admin_client.post(URL, {"text": "", "file": upload})
    content = response.content.decode()
    assert "معرض للكتاب المستعمل" in content and "Windows-1256" in content


def test_confirm_creates_a_draft_and_redirects(admin_client, newsroom_sources):
    """Confirming creates the draft and says so."""
    response = admin_client.post(
        URL, {"text": sample("01_ar_afp_dateline.txt"), "confirm": "1"}, follow=True
    )
    article = Article.objects.get()
    assert article.status == Status.DRAFT
    assert f"#{article.pk}" in response.content.decode()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\x00\x01\x02\x03" * 20,
        sample("07_ar_hostile_embed.txt"),
        "عنوان\n\n<blockquote class='twitter-tweet'><p><script>alert(1)",
        "<img src=x onerror=alert(1)>",
        sample("12_en_impossible_date.txt"),
    ],
)
def test_hostile_or_broken_input_gets_a_message_not_an_error_page(admin_client, text):
    """Whatever is pasted, the page answers with a message, never a 500 or a script."""
    response = admin_client.post(URL, {"text": text})
    assert response.status_code == 200
    assert b"<script>alert" not in response.content
    response = admin_client.post(URL, {"text": text, "confirm": "1"})
    assert response.status_code in (200, 302)  # 302: cleaned and imported
    assert b"<script>alert" not in response.content
    assert not Article.objects.filter(body_ar__contains="alert").exists()
    assert not Article.objects.filter(social_posts__text__contains="<script").exists()


def test_impossible_date_message_names_the_line(admin_client):
    """The error for February 30 says which line it is on."""
    response = admin_client.post(URL, {"text": sample("12_en_impossible_date.txt")})
    content = response.content.decode()
    assert "Line 7" in content and "February 30, 2024" in content
    assert 'name="confirm"' not in content


def test_a_20_mb_paste_is_refused_with_a_message(admin_client):
    """A huge paste gets a message naming the limit; nothing is created."""
    admin_client.cookies["django_language"] = "en"
    twenty_mb_of_arabic = "ب" * (10 * 1024 * 1024)  # two bytes a letter in UTF-8
    response = admin_client.post(URL, {"text": "عنوان\n\n" + twenty_mb_of_arabic})
    assert response.status_code == 200
    assert "too long" in response.content.decode()
    assert not Article.objects.exists()


def test_a_20_mb_upload_is_refused_with_a_message(admin_client):
    """A huge file gets a message naming the limit; nothing is created."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    admin_client.cookies["django_language"] = "en"
    upload = SimpleUploadedFile("story.txt", b"a" * (20 * 1024 * 1024))
    response = admin_client.post(URL, {"text": "", "file": upload})
    assert response.status_code == 200
    assert "too large" in response.content.decode()
    assert not Article.objects.exists()


RECOGNIZE_URL = "/admin/articles/article/recognize-post/"


def test_recognize_post_returns_the_fields_a_paste_fills(admin_client):
    """Pasting a YouTube link tells the inline's script what to fill."""
    response = admin_client.post(
        RECOGNIZE_URL, {"paste": "https://youtu.be/dQw4w9WgXcQ"}
    )
    assert response.status_code == 200
    fields = response.json()["fields"]
    assert fields["platform"] == "youtube"
    assert "dQw4w9WgXcQ" in fields["url"]


def test_recognize_post_reports_what_it_could_not_read(admin_client):
    """Text that is no post gets a message, not fields."""
    response = admin_client.post(RECOGNIZE_URL, {"paste": "just some words here"})
    assert response.json()["fields"] == {}
    assert response.json()["messages"]


def test_recognize_post_is_for_staff_only(client):
    """Readers cannot use the recognizer."""
    response = client.post(RECOGNIZE_URL, {"paste": "https://youtu.be/dQw4w9WgXcQ"})
    assert response.status_code == 302


def test_recognize_post_fills_the_day_without_inventing_a_time(admin_client):
    """A copied post with only its day fills "posted on", never a midnight time."""
    paste = "الطريق مفتوح الآن\n\n— بلدية المدينة (@city_hall) December 12, 2024"
    fields = admin_client.post(RECOGNIZE_URL, {"paste": paste}).json()["fields"]
    assert fields["posted_on"] == "2024-12-12"
    assert not any(name.startswith("posted_at") for name in fields)
