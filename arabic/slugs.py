"""Slugs that keep Arabic letters, for readable URLs in both scripts."""

from django.utils.text import slugify

from .normalize import strip_marks

MAX_SLUG_LENGTH = 80


def unicode_slug(text: str, max_length: int = MAX_SLUG_LENGTH) -> str:
    """A URL slug that keeps Arabic letters and drops tashkeel and tatweel."""
    slug = slugify(strip_marks(text), allow_unicode=True)
    return slug[:max_length].strip("-")
