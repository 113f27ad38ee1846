"""Sections and tags: names and addresses that public pages show."""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from taggit.models import Tag, TaggedItem

from audit.services import audit_record
from core import events
from identity.refusals import Door, door

from .. import permissions as perms
from ..models import Section
from .base import Action, public_rows_check, require_permission, row_delete, row_save


@events.sends(events.section_changed)
@door(Door.SECTION_SAVE)
@transaction.atomic
def section_save(*, section: Section, by: AbstractBaseUser) -> Section:
    """Create or rename a section; its name and address show on every page."""
    return row_save(
        section,
        by=by,
        refusal=_("You may not change sections."),
        event=events.section_changed,
    )


@events.sends(events.section_changed)
@transaction.atomic
def section_delete(*, section: Section, by: AbstractBaseUser) -> None:
    row_delete(
        section,
        by=by,
        refusal=_("You may not delete sections."),
        event=events.section_changed,
    )


@events.sends(events.tag_changed)
@door(Door.TAG_SAVE)
@transaction.atomic
def tag_save(*, tag: Tag, by: AbstractBaseUser) -> Tag:
    """Create or rename a tag; its name and address show on public pages."""
    return row_save(
        tag, by=by, refusal=_("You may not change tags."), event=events.tag_changed
    )


@events.sends(events.tag_changed)
@transaction.atomic
def tag_delete(*, tag: Tag, by: AbstractBaseUser) -> None:
    row_delete(
        tag, by=by, refusal=_("You may not delete tags."), event=events.tag_changed
    )


def may_merge_tags(user: AbstractBaseUser) -> bool:
    """Merging changes one tag and deletes the others."""
    return user.has_perm(perms.CHANGE_TAG) and user.has_perm(perms.DELETE_TAG)


@events.sends(events.tag_changed)
@door(Door.TAG_MERGE)
@transaction.atomic
def tag_merge(*, tags: Iterable[Tag], into: str, by: AbstractBaseUser) -> Tag:
    """Merge `tags` into the tag named `into` (made if there is none): everything
    they tag takes that tag, and they are deleted. The name and its address show on
    the pages of every story so tagged, so they pass the identity gate first."""
    if by is None or not by.is_active or not may_merge_tags(by):
        raise PermissionDenied(_("You may not merge tags."))
    name = into.strip()
    target = Tag.objects.filter(name=name).first()
    adding = target is None
    if adding:
        require_permission(by, perms.ADD_TAG, _("You may not add tags."))
        target = Tag(name=name)
        target.slug = target.slugify(name)
        # The address is made unique on saving (taggit adds "_1"), after the check.
        target.full_clean(exclude=["slug"])
        if not target.slug:
            raise ValidationError({"name": _("Give the tag a name.")})
    public_rows_check(target)
    merged = [tag for tag in tags if tag.pk != target.pk]
    if not merged:
        raise ValidationError(_("Choose tags to merge into another."))
    target.save()
    tagged = set(
        TaggedItem.objects.filter(tag=target).values_list(
            "content_type_id", "object_id"
        )
    )
    for item in TaggedItem.objects.filter(tag__in=merged).order_by("pk"):
        key = (item.content_type_id, item.object_id)
        if key in tagged:
            item.delete()
        else:
            item.tag = target
            item.save(update_fields=["tag"])
            tagged.add(key)
    numbers = ", ".join(f"#{tag.pk}" for tag in merged)
    for tag in merged:
        audit_record(by=by, action=Action.DELETED, obj=tag)
        events.send_on_commit(
            events.tag_changed, instance=tag, by=by, action=Action.DELETED
        )
        tag.delete()
    if adding:
        audit_record(by=by, action=Action.CREATED, obj=target)
        events.send_on_commit(
            events.tag_changed, instance=target, by=by, action=Action.CREATED
        )
    # By number: the message never repeats what a merged tag was called.
    audit_record(by=by, action=Action.TAGS_MERGED, obj=target, message=numbers)
    events.send_on_commit(
        events.tag_changed,
        instance=target,
        by=by,
        action=Action.TAGS_MERGED,
        message=numbers,
    )
    return target
