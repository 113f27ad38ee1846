"""Sections and tags: names and addresses that public pages show."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from taggit.models import Tag

from ..models import Section
from .base import row_delete, row_save
from .refusals import Door, door


@door(Door.SECTION_SAVE)
@transaction.atomic
def section_save(*, section: Section, by: AbstractBaseUser) -> Section:
    """Create or rename a section; its name and address show on every page."""
    return row_save(section, by=by, refusal=_("You may not change sections."))


@transaction.atomic
def section_delete(*, section: Section, by: AbstractBaseUser) -> None:
    row_delete(section, by=by, refusal=_("You may not delete sections."))


@door(Door.TAG_SAVE)
@transaction.atomic
def tag_save(*, tag: Tag, by: AbstractBaseUser) -> Tag:
    """Create or rename a tag; its name and address show on public pages."""
    return row_save(tag, by=by, refusal=_("You may not change tags."))


@transaction.atomic
def tag_delete(*, tag: Tag, by: AbstractBaseUser) -> None:
    row_delete(tag, by=by, refusal=_("You may not delete tags."))
