"""Checks for uploaded pictures: real images only, bounded, and stripped of metadata.

Photo metadata (EXIF, GPS position, camera serial, XMP) has exposed sources and
photographers in published stories, so every upload is decoded and re-encoded from
its pixels alone. The orientation EXIF carried is applied to the pixels first.
"""

from io import BytesIO
from pathlib import PurePath
from uuid import uuid4

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageOps, UnidentifiedImageError

from .decoding import decoding

MAX_UPLOAD_BYTES = 15 * 1024 * 1024
# Far above any newsroom photo, far below what would exhaust memory when decoded.
# A 79-megapixel JPEG of 1.5 MB took one worker to 1.2 GB while re-encoding; 40
# megapixels is well above a newsroom photo and keeps a worker's memory bounded.
MAX_PIXELS = 40_000_000
# EXIF, XMP, colour profile and comments together; a camera writes well under 200 KB.
# More is a file built to make decoders work (or a hiding place), not a photo.
MAX_METADATA_BYTES = 1024 * 1024

# Markup, script or an archive inside an "image" make it a polyglot: a file that is
# also a web page or a ZIP (GIFAR), which some browser or tool may read as such.
_POLYGLOT_MARKERS = (
    b"<script",
    b"<html",
    b"<body",
    b"<iframe",
    b"<svg",
    b"<?php",
    b"javascript:",
)
# A ZIP's end-of-directory record is read from the end of the file.
_ZIP_END = b"PK\x05\x06"
_ZIP_TAIL_BYTES = 65_536 + 22

# Formats we accept and re-encode in the same format.
_FORMATS = {
    "JPEG": ("image/jpeg", ".jpg"),
    "PNG": ("image/png", ".png"),
    "WEBP": ("image/webp", ".webp"),
    "GIF": ("image/gif", ".gif"),
}


@deconstructible
class AnonymousName:
    """`upload_to` that stores a file under a random name in `folder/YYYY/MM/`.

    An uploader's file name often says who or where ("mazen-khatib-home.jpg"), and it
    would appear in every image URL; only the extension is kept.
    """

    def __init__(self, folder: str):
        self.folder = folder

    def __call__(self, instance, filename: str) -> str:
        suffix = PurePath(filename or "").suffix.lower()
        if not suffix[1:].isalnum() or len(suffix) > 6:
            suffix = ""
        return f"{self.folder}/{timezone.now():%Y/%m}/{uuid4().hex}{suffix}"

    def __eq__(self, other) -> bool:
        return isinstance(other, AnonymousName) and other.folder == self.folder


def clean_image(upload, *, max_bytes: int = MAX_UPLOAD_BYTES) -> SimpleUploadedFile:
    """A metadata-free copy of an uploaded image, or a ValidationError saying why."""
    if not upload.size:
        raise ValidationError(
            _("The file is empty (0 bytes); choose the picture again."),
            code="image_empty",
        )
    if upload.size > max_bytes:
        raise ValidationError(
            _("The image is %(size)s; the limit is %(limit)s."),
            code="image_too_large",
            params={
                "size": filesizeformat(upload.size),
                "limit": filesizeformat(max_bytes),
            },
        )
    try:
        image_format, data = _reencode(upload)
    except Image.DecompressionBombError as error:
        raise _too_many_pixels() from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise ValidationError(
            _(
                "This file is not an image or it is damaged. "
                "Upload a JPEG, PNG, WebP or GIF image."
            ),
            code="invalid_image",
        ) from error
    # Checked once the file is known to be a picture, so a file that is no picture
    # at all (an SVG named .png) is called that.
    _refuse_polyglot(upload)
    content_type, suffix = _FORMATS[image_format]
    name = PurePath(upload.name or "image").stem + suffix
    return SimpleUploadedFile(name, data, content_type=content_type)


def _too_many_pixels() -> ValidationError:
    return ValidationError(
        _("The image has too many pixels; keep it under %(megapixels)s megapixels."),
        code="image_too_many_pixels",
        params={"megapixels": MAX_PIXELS // 1_000_000},
    )


def _refuse_polyglot(upload) -> None:
    upload.seek(0)
    data = upload.read()
    lowered = data.lower()
    tail = data[-_ZIP_TAIL_BYTES:]
    if any(marker in lowered for marker in _POLYGLOT_MARKERS) or _ZIP_END in tail:
        raise ValidationError(
            _(
                "This file holds more than a picture (web page, script or archive "
                "content). Export the picture again from a photo editor."
            ),
            code="image_polyglot",
        )


def _metadata_bytes(image: Image.Image) -> int:
    """The size of what the file carries besides its pixels."""
    # A JPEG keeps everything in application segments (EXIF, XMP, colour profile,
    # maker notes), each up to 64 KB; `info` repeats some of them.
    segments = getattr(image, "applist", None)
    if segments:
        return sum(len(segment) for _marker, segment in segments)
    return sum(len(v) for v in image.info.values() if isinstance(v, bytes | str))


def _reencode(upload) -> tuple[str, bytes]:
    upload.seek(0)
    with Image.open(upload) as probe:
        # Many phones write JPEGs with a second, embedded image (MPO).
        image_format = "JPEG" if probe.format == "MPO" else probe.format
        size = probe.size
        if probe.width * probe.height > MAX_PIXELS:
            raise _too_many_pixels()
        # Renditions are stills: an animation would be kept as its first frame,
        # which is a different picture from the one the editor chose. (A phone's
        # MPO is a photo with a preview inside it, not an animation.)
        if image_format != "JPEG" and getattr(probe, "is_animated", False):
            raise ValidationError(
                _(
                    "This image is animated. The library keeps still pictures: "
                    "upload a still image, or embed the animation from where it "
                    "was posted."
                ),
                code="image_animated",
            )
        if _metadata_bytes(probe) > MAX_METADATA_BYTES:
            raise ValidationError(
                _(
                    "The image carries %(size)s of metadata; the limit is "
                    "%(limit)s. Export the picture again without its metadata."
                ),
                code="image_metadata",
                params={
                    "size": filesizeformat(_metadata_bytes(probe)),
                    "limit": filesizeformat(MAX_METADATA_BYTES),
                },
            )
        probe.verify()
    if image_format not in _FORMATS:
        raise ValidationError(
            _("Upload a JPEG, PNG, WebP or GIF image (this file is %(format)s)."),
            code="image_format",
            params={"format": image_format},
        )
    # verify() leaves the image unusable, so it is opened again to be re-encoded.
    upload.seek(0)
    with decoding(*size), Image.open(upload) as original:
        original.load()
        info = dict(original.info)
        # Turned upright in place: a copy of a 40-megapixel picture costs 160 MB
        # and a fifth of a second of the editor's wait.
        ImageOps.exif_transpose(original, in_place=True)
        return image_format, _encode(original, image_format, info)


def _encode(image: Image.Image, image_format: str, info: dict) -> bytes:
    """Pixels (and colour profile) only: no EXIF, XMP, comments or text chunks.

    `image` is the caller's to give up: its metadata is emptied, not copied."""
    options: dict = {}
    if info.get("icc_profile"):
        options["icc_profile"] = info["icc_profile"]
    if image_format == "JPEG":
        if image.mode not in ("RGB", "L", "CMYK"):
            image = image.convert("RGB")
        options.update(quality=90, optimize=True)
    elif image_format == "PNG":
        # zlib's fastest level: for a 40-megapixel PNG a second less of the
        # editor's wait, for a kept original some tenths larger (readers get the
        # renditions).
        options.update(compress_level=1)
    elif image_format == "WEBP":
        options.update(quality=90)
    elif image_format == "GIF" and "transparency" in info:
        options["transparency"] = info["transparency"]
    # Encoders may read metadata from `info` (GIF comments, for one): start empty.
    image.info = {}
    buffer = BytesIO()
    image.save(buffer, format=image_format, **options)
    return buffer.getvalue()
