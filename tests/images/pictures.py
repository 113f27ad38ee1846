"""Pictures and bad files made in the test, byte by byte: nothing comes from outside."""

import io
import random
import struct
import zipfile
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

GPS_IFD = 0x8825


def photo_bytes(size=(1600, 900), image_format="JPEG", **options) -> bytes:
    """A photo-like picture: gradients and noise, so it compresses like a photo.
    The noise is random, so two calls give two different pictures."""
    gradient = Image.linear_gradient("L").resize(size)
    noise = Image.effect_noise(size, 40)
    picture = Image.merge("RGB", [gradient, Image.blend(gradient, noise, 0.5), noise])
    buffer = io.BytesIO()
    picture.save(buffer, image_format, **options)
    return buffer.getvalue()


def jpeg_with_gps(size=(400, 300)) -> bytes:
    exif = Image.Exif()
    exif[0x010F] = "Camera maker"
    exif[GPS_IFD] = {1: "N", 2: (25.0, 12.0, 3.0), 3: "E", 4: (55.0, 17.0, 1.0)}
    return photo_bytes(size, exif=exif)


def upload(data: bytes, name: str = "photo.jpg", kind="image/jpeg"):
    return SimpleUploadedFile(name, data, content_type=kind)


def decompression_bomb() -> bytes:
    """A small PNG whose header claims 20,000 × 20,000 pixels (400 megapixels)."""
    data = bytearray(photo_bytes((8, 8), "PNG"))
    data[16:24] = struct.pack(">II", 20_000, 20_000)
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    return bytes(data)


def truncated_jpeg() -> bytes:
    data = photo_bytes((800, 600))
    return data[: len(data) // 2]


def tiff_named_jpeg() -> bytes:
    return photo_bytes((64, 64), "TIFF")


SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(document.cookie)</script></svg>"
)


def jpeg_with_html() -> bytes:
    """A real JPEG followed by a web page: a browser sniffing it may run the page."""
    return photo_bytes((64, 64)) + b"<html><script>alert(1)</script></html>"


def gif_with_zip() -> bytes:
    """A GIF followed by a ZIP archive (a "GIFAR")."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("payload.txt", "not a picture")
    return photo_bytes((32, 32), "GIF") + archive.getvalue()


def png_with_huge_exif() -> bytes:
    """A 16 × 16 PNG carrying 2 MB of EXIF."""
    buffer = io.BytesIO()
    exif = b"Exif\x00\x00MM\x00*" + b"\x00" * (2 * 1024 * 1024)
    Image.new("RGB", (16, 16), "red").save(buffer, "PNG", exif=exif)
    return buffer.getvalue()


def thirty_megabytes() -> bytes:
    """A JPEG's first bytes, then 30 MB."""
    return b"\xff\xd8\xff\xe0" + random.Random(3).randbytes(30 * 1024 * 1024)


def animation(image_format: str = "GIF", frames: int = 5000) -> bytes:
    """An animation of `frames` small frames, each a different shade."""
    shades = [(i * 53 % 256, i * 101 % 256, i * 29 % 256) for i in range(frames)]
    pictures = [Image.new("RGB", (16, 16), shade) for shade in shades]
    buffer = io.BytesIO()
    pictures[0].save(
        buffer, image_format, save_all=True, append_images=pictures[1:], duration=20
    )
    return buffer.getvalue()
