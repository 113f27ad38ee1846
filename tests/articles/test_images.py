"""Uploaded pictures: only real images, bounded in size, stripped of metadata."""

from io import BytesIO

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from PIL import Image

from images.uploads import clean_image

GPS_IFD = 0x8825
ORIENTATION = 0x0112


def jpeg_with_gps(size=(40, 20), orientation: int | None = None) -> bytes:
    exif = Image.Exif()
    exif[0x010F] = "Camera maker"
    exif[GPS_IFD] = {1: "N", 2: (25.0, 12.0, 3.0), 3: "E", 4: (55.0, 17.0, 1.0)}
    if orientation:
        exif[ORIENTATION] = orientation
    buffer = BytesIO()
    Image.new("RGB", size, "red").save(buffer, "JPEG", exif=exif)
    return buffer.getvalue()


def upload(data: bytes, name: str = "photo.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


@pytest.fixture(autouse=True)
def english_messages():
    """Messages are read in English here; the Arabic catalog has its own check."""
    with translation.override("en"):
        yield


def test_clean_image_drops_exif_and_gps():
    """A JPEG carrying GPS coordinates comes back with no EXIF at all."""
    with Image.open(BytesIO(jpeg_with_gps())) as original:
        assert GPS_IFD in original.getexif()
    with Image.open(clean_image(upload(jpeg_with_gps()))) as cleaned:
        assert dict(cleaned.getexif()) == {}
        assert "exif" not in cleaned.info


def test_clean_image_applies_the_orientation():
    """A photo tagged "rotate 90°" is turned in its pixels before the tag is dropped."""
    with Image.open(clean_image(upload(jpeg_with_gps((40, 20), orientation=6)))) as img:
        assert img.size == (20, 40)


def test_clean_image_keeps_png_transparency():
    """A PNG logo stays a PNG with its alpha channel."""
    buffer = BytesIO()
    Image.new("RGBA", (8, 8), (0, 0, 0, 0)).save(buffer, "PNG")
    cleaned = clean_image(upload(buffer.getvalue(), "logo.png"))
    with Image.open(cleaned) as img:
        assert (img.format, img.mode) == ("PNG", "RGBA")
    assert cleaned.name == "logo.png"


def test_clean_image_refuses_a_non_image():
    """A text file named .jpg is refused with a message saying it is not an image."""
    with pytest.raises(ValidationError, match="not an image"):
        clean_image(upload(b"just some text"))


def test_clean_image_refuses_a_truncated_image():
    """A damaged (cut-off) JPEG is refused."""
    with pytest.raises(ValidationError, match="damaged"):
        clean_image(upload(jpeg_with_gps()[:200]))


def test_clean_image_refuses_a_too_large_file():
    """A file over the size limit is refused with the limit in the message."""
    with pytest.raises(ValidationError, match="limit"):
        clean_image(upload(jpeg_with_gps()), max_bytes=100)


def test_clean_image_refuses_an_image_of_too_many_pixels():
    """50 megapixels (a small file: one colour) is refused before it is decoded."""
    buffer = BytesIO()
    Image.new("1", (10_000, 5_000)).save(buffer, "PNG")
    with pytest.raises(ValidationError) as refused:
        clean_image(upload(buffer.getvalue(), "huge.png"))
    assert refused.value.code == "image_too_many_pixels"
    assert "40 megapixels" in refused.value.messages[0]


def test_clean_image_refuses_other_formats():
    """A BMP is refused with the accepted formats named."""
    buffer = BytesIO()
    Image.new("RGB", (4, 4)).save(buffer, "BMP")
    with pytest.raises(ValidationError, match="JPEG, PNG, WebP or GIF"):
        clean_image(upload(buffer.getvalue(), "x.bmp"))
