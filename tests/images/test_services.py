"""The library's door: uploads cleaned and kept once, the identity gate, renditions
after commit, no deletion while a story uses the image."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from PIL import Image as Pillow

from articles.services import (
    DuplicateImageError,
    image_delete,
    image_references,
    image_save,
)
from audit.models import AuditEvent
from identity.gate import IdentityLeakError
from images.models import Image, Rendition
from tests.factories import (
    ArticleFactory,
    ProtectedPersonFactory,
    SuperuserFactory,
    UserFactory,
)
from tests.images.conftest import stored_files
from tests.images.pictures import jpeg_with_gps, photo_bytes, upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def chief():
    return SuperuserFactory(username="chief")


def new_image(data: bytes | None = None, name: str = "photo.jpg", **fields) -> Image:
    fields.setdefault("title_ar", "صورة")
    return Image(file=upload(data or photo_bytes((400, 300)), name), **fields)


def test_a_saved_image_has_no_gps_and_says_nothing_in_its_name(chief):
    """The stored file is re-encoded without EXIF, under a random name."""
    image = image_save(image=new_image(jpeg_with_gps(), "mazen-at-home.jpg"), by=chief)
    with Pillow.open(image.file) as stored:
        assert dict(stored.getexif()) == {}
    assert image.file.name.startswith("images/")
    assert "mazen" not in image.file.name and image.file.name.endswith(".jpg")


def test_a_saved_image_records_size_hash_uploader_and_audit(chief):
    """Width, height, the hash of the cleaned bytes and who uploaded it are kept,
    and the audit trail has the creation."""
    image = image_save(image=new_image(photo_bytes((400, 300))), by=chief)
    assert (image.width, image.height) == (400, 300)
    assert len(image.content_hash) == 64
    assert image.uploaded_by == chief
    assert AuditEvent.objects.filter(action="created", object_id=str(image.pk))


def test_the_same_picture_twice_is_refused_naming_the_first(chief):
    """A second upload of the same picture names the library image to use."""
    data = photo_bytes((300, 200))
    first = image_save(image=new_image(data, title_ar="الميناء"), by=chief)
    with pytest.raises(DuplicateImageError) as refused:
        image_save(image=new_image(data, "again.jpg"), by=chief)
    assert refused.value.existing == first
    assert "الميناء" in refused.value.messages[0]
    assert Image.objects.count() == 1


def test_an_image_naming_a_protected_person_is_refused(chief, media):
    """A caption holding a legal name is refused, and no file is left behind."""
    person = ProtectedPersonFactory()
    with pytest.raises(IdentityLeakError):
        image_save(image=new_image(caption_en=f"{person.name} at home"), by=chief)
    assert not Image.objects.exists()
    assert stored_files(media) == []


def test_a_user_without_permission_may_not_add_images():
    """Someone outside the desk's roles is refused before anything is written."""
    with pytest.raises(PermissionDenied):
        image_save(image=new_image(), by=UserFactory())
    assert not Image.objects.exists()


def test_an_image_needs_a_file(chief):
    """A library image without a picture is refused with a message on the file."""
    with pytest.raises(ValidationError) as refused:
        image_save(image=Image(title_ar="بلا ملف"), by=chief)
    assert "file" in refused.value.message_dict


def test_renditions_are_made_after_commit(chief, django_capture_on_commit_callbacks):
    """Saving schedules the renditions for after the commit, not before."""
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        image = image_save(image=new_image(photo_bytes((1000, 700))), by=chief)
    assert not Rendition.objects.exists()
    for callback in callbacks:
        callback()
    widths = set(
        image.renditions.filter(ratio="", format="jpeg").values_list("width", flat=True)
    )
    assert widths == {320, 640, 960}
    assert image.renditions.filter(ratio="16:9", format="webp").exists()


def test_moving_the_focal_point_makes_the_crops_again(
    chief, django_capture_on_commit_callbacks
):
    """A new focal point gives new crops (the old files are replaced)."""
    with django_capture_on_commit_callbacks(execute=True):
        image = image_save(image=new_image(photo_bytes((400, 400))), by=chief)
    before = set(image.renditions.values_list("file", flat=True))
    image.focal_y = 0.0
    with django_capture_on_commit_callbacks(execute=True):
        image_save(image=image, by=chief)
    after = set(image.renditions.values_list("file", flat=True))
    assert before and after and not before & after


def test_an_image_used_as_a_hero_cannot_be_deleted(chief):
    """Deleting an image a story shows is refused, naming the story."""
    image = image_save(image=new_image(), by=chief)
    ArticleFactory(headline_ar="خبر الميناء", hero_image=image)
    with pytest.raises(ValidationError) as refused:
        image_delete(image=image, by=chief)
    assert "خبر الميناء" in refused.value.messages[0]
    assert Image.objects.filter(pk=image.pk).exists()


def test_image_references_lists_the_stories_showing_it(chief):
    """The stories using an image as their hero are its references."""
    image = image_save(image=new_image(), by=chief)
    story = ArticleFactory(hero_image=image)
    assert image_references(image) == [story]


def test_deleting_an_unused_image_removes_its_files(
    chief, media, django_capture_on_commit_callbacks
):
    """Once the deletion commits, the original and its renditions are gone."""
    with django_capture_on_commit_callbacks(execute=True):
        image = image_save(image=new_image(photo_bytes((700, 400))), by=chief)
    assert len(stored_files(media)) > 1
    with django_capture_on_commit_callbacks(execute=True):
        image_delete(image=image, by=chief)
    assert not Image.objects.exists()
    assert stored_files(media) == []
    assert AuditEvent.objects.filter(action="deleted").exists()


def test_pages_are_cached_anew_once_renditions_exist(
    chief, settings, django_capture_on_commit_callbacks
):
    """The page cache starts a new generation after the renditions are made, so no
    page keeps showing the original."""
    from publishing.page_cache import generation

    with django_capture_on_commit_callbacks(execute=False) as saved:
        image_save(image=new_image(), by=chief)
    with django_capture_on_commit_callbacks(execute=False) as made:
        for callback in saved:
            callback()  # image_changed: the renditions' job runs (immediate backend)
    assert Rendition.objects.exists()
    before = generation()
    for callback in made:
        callback()  # image_renditions_made, sent once the job has made them
    assert generation() != before


def test_an_image_placed_in_a_body_cannot_be_deleted(chief):
    """An image placed in a story's body counts as used, in either language."""
    image = image_save(image=new_image(), by=chief)
    story = ArticleFactory(
        headline_ar="خبر الجسر",
        body_en=f'<p>One</p><figure data-image="{image.pk}"></figure>',
    )
    assert image_references(image) == [story]
    with pytest.raises(ValidationError) as refused:
        image_delete(image=image, by=chief)
    assert "خبر الجسر" in refused.value.messages[0]


def test_an_image_with_a_similar_number_is_not_a_reference(chief):
    """A body placing image 12 does not hold on to image 1."""
    image = image_save(image=new_image(), by=chief)
    ArticleFactory(body_ar=f'<figure data-image="{image.pk}0"></figure>')
    assert image_references(image) == []
