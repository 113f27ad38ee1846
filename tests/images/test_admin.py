"""The image library in the admin: uploads, bad files, duplicates, search, the hero
field's autocomplete with thumbnails and the refusal to delete an image in use."""

import pytest
from django.urls import reverse

from images.models import Image
from tests.factories import ArticleFactory, ImageFactory, RenditionFactory
from tests.images.conftest import stored_files
from tests.images.pictures import (
    SVG,
    animation,
    decompression_bomb,
    gif_with_zip,
    jpeg_with_html,
    photo_bytes,
    png_with_huge_exif,
    thirty_megabytes,
    tiff_named_jpeg,
    truncated_jpeg,
    upload,
)

pytestmark = pytest.mark.django_db

ADD_URL = reverse("admin:images_image_add")


def image_form(file, **fields) -> dict:
    return {
        "file": file,
        "title_ar": "صورة الميناء",
        "title_en": "",
        "caption_ar": "",
        "caption_en": "",
        "alt_text_ar": "",
        "alt_text_en": "",
        "credit": "",
        "source": "",
        "focal_x": "0.5",
        "focal_y": "0.5",
        **fields,
    }


def test_an_upload_is_stored_with_its_renditions(
    admin_client, media, django_capture_on_commit_callbacks
):
    """A photo uploaded in the admin becomes a library image with renditions."""
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            ADD_URL, image_form(upload(photo_bytes((700, 400))))
        )
    assert response.status_code == 302
    image = Image.objects.get()
    assert image.title_ar == "صورة الميناء"
    assert image.renditions.filter(width=640, format="webp").exists()


# (file, name, the words the error must use)
BAD_FILES = {
    "decompression bomb": (decompression_bomb, "big.png", "too many pixels"),
    "truncated file": (truncated_jpeg, "cut.jpg", "damaged"),
    "mislabelled file": (tiff_named_jpeg, "photo.jpg", "this file is TIFF"),
    "SVG named .png": (lambda: SVG, "logo.png", "not an image"),
    "JPEG and web page": (jpeg_with_html, "photo.jpg", "more than a picture"),
    "GIF and ZIP": (gif_with_zip, "anim.gif", "more than a picture"),
    "huge EXIF": (png_with_huge_exif, "meta.png", "of metadata"),
    "zero bytes": (lambda: b"", "empty.jpg", "empty"),
    "30 MB": (thirty_megabytes, "huge.jpg", "the limit is 15.0"),
    "GIF of 5,000 frames": (animation, "anim.gif", "This image is animated"),
    "animated WebP": (lambda: animation("WEBP", 3), "anim.webp", "is animated"),
    "animated PNG": (lambda: animation("PNG", 3), "anim.png", "is animated"),
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_a_bad_file_gets_a_clear_error_and_nothing_is_stored(admin_client, media, kind):
    """Each bad file is refused on the file field, and no row or file is left."""
    make, name, words = BAD_FILES[kind]
    response = admin_client.post(ADD_URL, image_form(upload(make(), name)))
    assert response.status_code == 200
    errors = " ".join(response.context["adminform"].form.errors.get("file", []))
    assert words in errors, errors
    assert not Image.objects.exists()
    assert stored_files(media) == []


def test_uploading_a_picture_again_names_the_library_image(admin_client, media):
    """The same picture uploaded twice: the form points to the image already kept."""
    data = photo_bytes((300, 200))
    admin_client.post(ADD_URL, image_form(upload(data)))
    first = Image.objects.get()
    response = admin_client.post(
        ADD_URL, image_form(upload(data, "copy.jpg"), title_ar="نسخة")
    )
    errors = " ".join(response.context["adminform"].form.errors["file"])
    assert "already in the library" in errors and f"number {first.pk}" in errors
    assert Image.objects.count() == 1
    assert len(stored_files(media)) == 1


def test_the_list_shows_thumbnails_from_renditions(admin_client):
    """The changelist shows each image's smallest rendition."""
    rendition = RenditionFactory()
    html = admin_client.get(reverse("admin:images_image_changelist")).content.decode()
    assert f'src="{rendition.file.url}"' in html
    assert 'class="image-thumb"' in html


def test_search_ignores_hamza_forms(admin_client):
    """Searching الاسد finds an image titled الأسد."""
    ImageFactory(title_ar="تمثال الأسد")
    ImageFactory(title_ar="الميناء")
    response = admin_client.get(
        reverse("admin:images_image_changelist"), {"q": "الاسد"}
    )
    assert [str(i) for i in response.context["cl"].result_list] == ["تمثال الأسد"]


def test_the_hero_autocomplete_answers_with_thumbnails(admin_client):
    """The hero field's autocomplete gives each image's title and thumbnail."""
    rendition = RenditionFactory(image=ImageFactory(title_ar="الميناء"))
    response = admin_client.get(
        reverse("admin:images_image_autocomplete"),
        {
            "term": "الميناء",
            "app_label": "articles",
            "model_name": "article",
            "field_name": "hero_image",
        },
    )
    (result,) = response.json()["results"]
    assert result["text"] == "الميناء"
    assert result["thumb"] == rendition.file.url


def test_the_article_form_offers_thumbnails_and_upload_in_place(admin_client):
    """The hero field is an autocomplete with thumbnails and a "+" to upload."""
    html = admin_client.get(reverse("admin:articles_article_add")).content.decode()
    assert "data-thumbnails" in html
    assert "admin_ext/image_choice.js" in html
    assert 'id="add_id_hero_image"' in html


def test_deleting_an_image_in_use_is_refused_with_a_message(admin_client):
    """The admin's delete page names the story using the image and keeps it."""
    image = ImageFactory()
    ArticleFactory(headline_ar="خبر الصورة", hero_image=image)
    url = reverse("admin:images_image_delete", args=[image.pk])
    response = admin_client.post(url, {"post": "yes"})
    html = response.content.decode()
    assert "protected related objects" in html and "خبر الصورة" in html
    assert Image.objects.filter(pk=image.pk).exists()


def test_the_plus_popup_uploads_and_hands_the_image_to_the_story(admin_client):
    """The "+" beside the hero field uploads in a popup and returns the new image
    to the story's form."""
    response = admin_client.post(
        f"{ADD_URL}?_to_field=id&_popup=1",
        {**image_form(upload(photo_bytes((300, 200)))), "_popup": "1"},
    )
    image = Image.objects.get()
    assert response.status_code == 200
    html = response.content.decode()
    assert "popup_response" in html and f"&quot;value&quot;: &quot;{image.pk}" in html
