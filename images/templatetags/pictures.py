"""`{% picture %}`: an image as <picture> with sources per format and srcset per
width, sized so nothing moves while it loads.

    {% load pictures %}
    {% picture image sizes="(min-width: 60rem) 60rem, 100vw" loading="eager" %}
    {% picture image ratio="16:9" sizes="20rem" loading="lazy" css_class="x" %}

Load the renditions first (`images.renditions.renditions_load` or
`images_with_renditions`), or each image costs a query. A missing rendition is
never made here: the original is shown instead.
"""

from django import template

from ..models import Image, Rendition
from ..renditions import FORMATS, renditions_of

register = template.Library()

# The <img> fallback for browsers without srcset: a size that suits most screens.
_FALLBACK_WIDTH = 960


def _srcset(renditions: list[Rendition]) -> str:
    return ", ".join(f"{r.file.url} {r.width}w" for r in renditions)


def picture_context(
    image: Image,
    *,
    sizes: str = "100vw",
    loading: str = "lazy",
    ratio: str = "",
    alt: str | None = None,
    fetchpriority: str = "",
    css_class: str = "",
    lang: str = "",
) -> dict:
    """What templates/images/picture.html needs to show `image`."""
    renditions = renditions_of(image, ratio)
    by_format = {
        fmt: sorted((r for r in renditions if r.format == fmt), key=lambda r: r.width)
        for fmt in FORMATS
    }
    jpegs = by_format.pop(Rendition.Format.JPEG, [])
    context = {
        "image": image,
        "alt": image.alt_text if alt is None else alt,
        "sizes": sizes,
        "loading": loading if loading in ("lazy", "eager") else "lazy",
        "fetchpriority": fetchpriority,
        "css_class": css_class,
        "lang": lang,
        "sources": [
            {"type": f"image/{fmt}", "srcset": _srcset(found)}
            for fmt, found in by_format.items()
            if found
        ],
    }
    if jpegs:
        fallback = next((r for r in jpegs if r.width >= _FALLBACK_WIDTH), jpegs[-1])
        # The proportions of the largest one: the browser reserves the space.
        largest = jpegs[-1]
        context.update(
            src=fallback.file.url,
            srcset=_srcset(jpegs),
            width=largest.width,
            height=largest.height,
        )
    else:
        context.update(
            sources=[],
            src=image.file.url,
            srcset="",
            width=image.width or None,
            height=image.height or None,
        )
    return context


@register.inclusion_tag("images/picture.html")
def picture(image, **options):
    """Render `image` (an images.Image) as <picture>; nothing for None."""
    if image is None or not getattr(image, "file", None):
        return {"image": None}
    return picture_context(image, **options)
