"""Renditions: the sizes and crops readers' screens get instead of the original.

They are made after an image is saved (the service records the set as owed and
enqueues `images.tasks.make_renditions` on commit, a worker runs it; the sweep
queues it again if that job is lost) or by `manage.py regenerate_renditions`,
never during a request: a page whose rendition is missing shows the original.
Pages read renditions in one query for all their images (`renditions_load`,
`images_with_renditions`).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from io import BytesIO

from django.core.files.base import ContentFile
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from PIL import Image as Pillow
from PIL import ImageOps, features

from .decoding import decoding
from .models import Image, Rendition

# Widths for the whole picture, chosen by the browser from srcset and sizes.
WIDTHS = (320, 640, 960, 1280, 1920)
# Crops around the focal point: 16:9 for teasers and social cards (1200 × 675 is
# the size OpenGraph and X ask for).
SOCIAL_RATIO = "16:9"
SOCIAL_WIDTH = 1200
CROPS = {SOCIAL_RATIO: (320, 640, 960, SOCIAL_WIDTH)}

Format = Rendition.Format
# Best first: a browser takes the first <source> type it supports. AVIF only where
# the installed Pillow can write it; JPEG is the fallback every browser reads.
FORMATS = [
    *([Format.AVIF] if features.check("avif") else []),
    Format.WEBP,
    Format.JPEG,
]
_ENCODER = {
    Format.AVIF: ("AVIF", {"quality": 60, "speed": 8}),
    Format.WEBP: ("WEBP", {"quality": 80, "method": 4}),
    Format.JPEG: ("JPEG", {"quality": 82, "optimize": True, "progressive": True}),
}


@dataclass(frozen=True)
class Spec:
    """One rendition an image should have."""

    ratio: str
    width: int
    height: int
    format: str

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.ratio, self.width, self.format)


def crop_box(image: Image, ratio: str) -> tuple[int, int, int, int]:
    """The largest `ratio` ("W:H") box inside the image, centred on its focal point
    as far as the edges allow; the whole picture when `ratio` is empty."""
    if not ratio:
        return (0, 0, image.width, image.height)
    ratio_w, ratio_h = (int(part) for part in ratio.split(":"))
    crop_w = min(image.width, round(image.height * ratio_w / ratio_h))
    crop_h = min(image.height, round(crop_w * ratio_h / ratio_w))
    left = _clamp(image.focal_x * image.width - crop_w / 2, image.width - crop_w)
    top = _clamp(image.focal_y * image.height - crop_h / 2, image.height - crop_h)
    return (left, top, left + crop_w, top + crop_h)


def _clamp(value: float, highest: int) -> int:
    return int(max(0, min(round(value), highest)))


def wanted(image: Image) -> list[Spec]:
    """Every rendition `image` should have: never wider than the original (or its
    crop), and one at the original's width when it is narrower than them all."""
    specs = []
    for ratio, widths in [("", WIDTHS), *CROPS.items()]:
        left, top, right, bottom = crop_box(image, ratio)
        box_w, box_h = right - left, bottom - top
        if not box_w or not box_h:
            continue
        fitting = [w for w in widths if w <= box_w] or [box_w]
        for width in fitting:
            height = max(1, round(width * box_h / box_w))
            specs += [Spec(ratio, width, height, fmt) for fmt in FORMATS]
    return specs


def _current(rendition: Rendition, image: Image, keys: set) -> bool:
    """Whether a stored rendition is one of the set `image` owes now: still
    wanted, and made for the set asked for last (not an earlier focal point)."""
    owed = image.renditions_owed_since
    key = (rendition.ratio, rendition.width, rendition.format)
    return key in keys and (owed is None or rendition.made_for == owed)


def renditions_owe(image: Image) -> None:
    """Record, in the change's transaction, that `image` owes a new set of
    renditions (its file or focal point changed); the row is the record of the
    work owed, and its job is enqueued once the change commits
    (images.receivers)."""
    now = timezone.now()
    Image.objects.filter(pk=image.pk).update(
        renditions_owed_since=now, renditions_leased_until=None, renditions_tries=0
    )
    image.renditions_owed_since = now


def renditions_missing(image: Image) -> list[Spec]:
    """The renditions of `image`'s set that are not stored yet."""
    specs = wanted(image)
    keys = {spec.key for spec in specs}
    have = {
        (r.ratio, r.width, r.format)
        for r in image.renditions.all()
        if _current(r, image, keys)
    }
    return [spec for spec in specs if spec.key not in have]


def renditions_make(
    image: Image,
    *,
    missing_only: bool = False,
    each: Callable[[], object] | None = None,
) -> int:
    """Make `image`'s renditions (only the missing ones if `missing_only`: a set
    half made is completed, not begun again); return how many were written.
    Renditions not wanted any more, or made for an earlier set, are removed.
    `each` is called after every rendition written (a job renews its lease)."""
    specs = wanted(image)
    keys = {spec.key for spec in specs}
    stored = {(r.ratio, r.width, r.format): r for r in image.renditions.all()}
    kept = {
        key: r for key, r in stored.items() if missing_only and _current(r, image, keys)
    }
    _remove([r for key, r in stored.items() if key not in kept])
    specs = [spec for spec in specs if spec.key not in kept]
    if not specs:
        return 0
    made = 0
    image.file.open("rb")
    try:
        with decoding(image.width, image.height), Pillow.open(image.file) as original:
            original.load()
            pixels = ImageOps.exif_transpose(original)
            for spec in specs:
                made += _write(image, pixels, spec)
                if each is not None:
                    each()
    finally:
        image.file.close()
    return made


def files_delete(names: Iterable[str], storage) -> None:
    """Remove stored files (after the rows that named them are gone)."""
    for name in names:
        if name:
            storage.delete(name)


def _remove(renditions: list[Rendition]) -> None:
    for rendition in renditions:
        rendition.file.delete(save=False)
        rendition.delete()


def _write(image: Image, pixels: Pillow.Image, spec: Spec) -> int:
    resized = pixels.resize(
        (spec.width, spec.height),
        Pillow.Resampling.LANCZOS,
        box=crop_box(image, spec.ratio),
        reducing_gap=3.0,
    )
    encoder, options = _ENCODER[spec.format]
    if spec.format == Format.JPEG and resized.mode != "RGB":
        resized = _on_white(resized)
    elif resized.mode not in ("RGB", "RGBA"):
        resized = resized.convert("RGBA")
    buffer = BytesIO()
    resized.save(buffer, format=encoder, **options)
    rendition = Rendition(
        image=image,
        ratio=spec.ratio,
        width=spec.width,
        height=spec.height,
        format=spec.format,
        made_for=image.renditions_owed_since,
    )
    rendition.file.save(f"r.{spec.format}", ContentFile(buffer.getvalue()), save=False)
    try:
        with transaction.atomic():
            rendition.save()
    except IntegrityError:
        # Another job made this one meanwhile (a sweep's job beside a slow one).
        rendition.file.delete(save=False)
        return 0
    return 1


def _on_white(image: Pillow.Image) -> Pillow.Image:
    """JPEG has no transparency: transparent parts become white, not black."""
    rgba = image.convert("RGBA")
    background = Pillow.new("RGB", rgba.size, "white")
    background.paste(rgba, mask=rgba.getchannel("A"))
    return background


# ------------------------------------------------------------ reading


def renditions_load(images: Iterable[Image | None]) -> None:
    """Fetch the renditions of all `images` in one query (none if there are none),
    so `{% picture %}` reads them without a query per image."""
    images = [image for image in images if image is not None]
    missing = [i for i in images if "renditions" not in _prefetched(i)]
    if missing:
        models.prefetch_related_objects(missing, "renditions")


def images_with_renditions(pks: Iterable[int]) -> dict[int, Image]:
    """The images with these primary keys, their renditions loaded: two queries
    whatever the number of images (for pictures placed in a story's body)."""
    pks = {pk for pk in pks if pk}
    if not pks:
        return {}
    found = Image.objects.filter(pk__in=pks).prefetch_related("renditions")
    return {image.pk: image for image in found}


def _prefetched(image: Image) -> dict:
    return getattr(image, "_prefetched_objects_cache", {})


def renditions_of(image: Image, ratio: str = "") -> list[Rendition]:
    """The renditions of one crop, as loaded (a query only if they were not)."""
    return [r for r in image.renditions.all() if r.ratio == ratio]


def social_card_url(image: Image | None) -> str:
    """The 1200-px 16:9 JPEG for og:image and Twitter cards (the original while it
    is missing); nothing for a graphic image, which is never a card."""
    if image is None or image.is_graphic or not image.file:
        return ""
    jpegs = [r for r in renditions_of(image, SOCIAL_RATIO) if r.format == Format.JPEG]
    if jpegs:
        return max(jpegs, key=lambda r: r.width).file.url
    return image.file.url
