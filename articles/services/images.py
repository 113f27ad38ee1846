"""Writes to the image library: uploads cleaned and found once, the identity gate on
every word an image shows, renditions made after commit, no deletion while used.

The library itself (models, renditions, `{% picture %}`) is the `images` app; the
door to it lives here, beside the identity gate and the stories that use images.
"""

import hashlib
from functools import partial

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from core import events
from identity.refusals import Door, door
from images.models import Image
from images.renditions import files_delete, renditions_owe
from images.uploads import clean_image

from .. import permissions as perms
from ..models import Article
from .base import Action, public_rows_check, require_permission


class DuplicateImageError(ValidationError):
    """The picture is in the library already: the message names the image to use."""

    def __init__(self, existing: Image):
        self.existing = existing
        super().__init__(
            _(
                "This picture is already in the library as “%(title)s” (number "
                "%(pk)s); choose that image instead of uploading it again."
            )
            % {"title": existing.title, "pk": existing.pk},
            code="duplicate_image",
        )


def image_upload_clean(upload, *, image: Image | None = None):
    """An uploaded file as the library stores it: re-encoded without metadata
    (`clean_image`), with the hash of its bytes, refused if the library already
    holds it. Cleaning twice is harmless: a cleaned file is returned as is."""
    if getattr(upload, "content_hash", ""):
        return upload
    cleaned = clean_image(upload)
    cleaned.content_hash = hashlib.sha256(cleaned.read()).hexdigest()
    cleaned.seek(0)
    same = Image.objects.filter(content_hash=cleaned.content_hash)
    if image is not None and image.pk:
        same = same.exclude(pk=image.pk)
    existing = same.first()
    if existing is not None:
        raise DuplicateImageError(existing)
    return cleaned


def image_check(image: Image, *_related: models.Model) -> None:
    """Refuse an image whose words (title, caption, alt text, credit, source or
    file name) hold a protected legal name."""
    public_rows_check(image)


def image_references(image: Image) -> list[models.Model]:
    """The stories that show `image`, as their hero or placed in a body: it cannot
    be deleted while any does."""
    placed = f'data-image="{int(image.pk)}"'
    shown = models.Q(hero_image=image)
    for code, _name in settings.LANGUAGES:
        shown |= models.Q(**{f"body_{code}__contains": placed})
    return list(Article.objects.filter(shown).order_by("pk"))


@events.sends(events.image_changed)
@door(Door.IMAGE_SAVE)
@transaction.atomic
def image_save(*, image: Image, by: AbstractBaseUser) -> Image:
    """Add or change a library image; a new file is cleaned and its renditions are
    made once the transaction commits (never while a reader waits)."""
    adding = image.pk is None
    require_permission(
        by,
        perms.ADD_IMAGE if adding else perms.CHANGE_IMAGE,
        _("You may not add images.") if adding else _("You may not change images."),
    )
    new_file = bool(image.file) and not image.file._committed
    if adding and not new_file:
        raise ValidationError({"file": _("Choose a picture to upload.")})
    stored = None if adding else Image.objects.get(pk=image.pk)
    if new_file:
        image.file = image_upload_clean(image.file.file, image=image)
        image.content_hash = image.file.file.content_hash
    if adding:
        image.uploaded_by = by
    image.full_clean(exclude=["content_hash", "file"])
    image_check(image)
    try:
        with transaction.atomic():
            image.save()
    except IntegrityError:
        # The same picture, uploaded at the same moment by someone else.
        raise DuplicateImageError(
            Image.objects.get(content_hash=image.content_hash)
        ) from None
    action = Action.CREATED if adding else Action.CHANGED
    audit_record(by=by, action=action, obj=image)
    moved = stored is not None and (stored.focal_x, stored.focal_y) != (
        image.focal_x,
        image.focal_y,
    )
    owed = new_file or moved
    if owed:
        renditions_owe(image)
    events.send_on_commit(
        events.image_changed,
        instance=image,
        by=by,
        action=action,
        renditions_owed=owed,
    )
    if new_file and stored is not None and stored.file.name != image.file.name:
        transaction.on_commit(
            partial(files_delete, [stored.file.name], image.file.storage)
        )
    return image


@events.sends(events.image_changed)
@transaction.atomic
def image_delete(*, image: Image, by: AbstractBaseUser) -> None:
    """Delete an image no story uses, with its renditions and files."""
    require_permission(by, perms.DELETE_IMAGE, _("You may not delete images."))
    using = image_references(image)
    if using:
        raise ValidationError(
            _(
                "“%(image)s” cannot be deleted: it is used by %(stories)s. Choose "
                "another image there first."
            )
            % {
                "image": image,
                "stories": _(", ").join(f"“{story}”" for story in using),
            },
            code="image_in_use",
        )
    names = [image.file.name, *(r.file.name for r in image.renditions.all())]
    audit_record(by=by, action=Action.DELETED, obj=image)
    events.send_on_commit(
        events.image_changed, instance=image, by=by, action=Action.DELETED
    )
    image.delete()
    transaction.on_commit(partial(files_delete, names, image.file.storage))
