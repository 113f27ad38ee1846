"""Slugs that keep Arabic letters, for readable URLs in both scripts."""

from django.utils.text import slugify

from .normalize import strip_marks

MAX_SLUG_LENGTH = 80


def unicode_slug(text: str, max_length: int = MAX_SLUG_LENGTH) -> str:
    """A URL slug that keeps Arabic letters and drops tashkeel and tatweel."""
    slug = slugify(strip_marks(text), allow_unicode=True)
    return slug[:max_length].strip("-")


def unique_slug(queryset, text: str, *, field: str = "slug") -> str:
    """A slug for `text` not yet taken in `queryset`: "اقتصاد", then "اقتصاد-2", ….

    Pass the queryset without the row being saved, so re-saving keeps its own slug.
    """
    base = unicode_slug(text) or "item"
    slug, number = base, 1
    while queryset.filter(**{field: slug}).exists():
        number += 1
        suffix = f"-{number}"
        slug = base[: MAX_SLUG_LENGTH - len(suffix)] + suffix
    return slug
