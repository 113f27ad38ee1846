"""Writing stories: saving with their rows, the workflow moves, restoring a
revision, deleting."""

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from reversion.models import Revision

from audit.services import audit_record
from core import events
from core.budget import check_budget
from identity.gate import IdentityGate
from identity.refusals import Door, door

from .. import permissions as perms
from ..body import (
    embedded_ids,
    new_post_keys,
    number_new_posts,
    place_embeds,
    sanitize_html,
)
from ..concurrency import merge_edit, record_as_found
from ..exposure import story_rows
from ..models import Article, SocialPost, Status
from ..parts import story_parts
from ..revisions import revision_record, snapshot
from ..workflow import (
    TRANSITIONS,
    WITHDRAW_TO_PROTECT,
    holds_permission,
    may_edit,
    may_make,
)
from .base import Action, require_permission, revision_comment, row_delete


@dataclass
class StoryEdit:
    """An article as an editor submits it: its fields, its tags and related rows.

    `tags` is None to leave the tags as they are; `changed` holds new or edited
    related rows (bylines, people, posts, attributions), `deleted` those removed.
    """

    article: Article
    tags: list[str] | None = None
    changed: list[models.Model] = field(default_factory=list)
    deleted: list[models.Model] = field(default_factory=list)
    # The story's version the editor started from; None for a fresh write.
    base_version: int | None = None
    # Filled in by the save: what was kept of others' changes made meanwhile.
    merged: list[str] = field(default_factory=list)
    # After a conflict, the places where the editor takes the others' version
    # (Conflict.choice), applied before the merge.
    take_theirs: list[str] = field(default_factory=list)
    # New posts to place in the body of the story's language, after block N (0 is
    # before the first): a post has no number to refer to until it is saved.
    placements: list[tuple[int, SocialPost]] = field(default_factory=list)
    # New posts the editor placed in the body before saving, by the key their row
    # in the form was given (<figure data-post-key="k1">): the save writes each
    # one's number in its place, in the same transaction.
    new_posts: dict[str, SocialPost] = field(default_factory=dict)

    def rows(self) -> list[models.Model]:
        """The story as it will be once saved, for the identity gate."""
        return story_rows(
            self.article, tags=self.tags, changed=self.changed, deleted=self.deleted
        )


def story_check(*, edit: StoryEdit) -> None:
    """Refuse an edit that puts a protected legal name into a story.

    Drafts too: every editor reads them, and a draft is one click from the site.
    A story that is public or scheduled must stay clean above all, and a story
    written before its person was protected is caught at its next save.
    """
    IdentityGate.load().check(edit.rows())
    _check_placed_posts_kept(edit)
    _check_new_posts_known(edit)


def _check_placed_posts_kept(edit: StoryEdit) -> None:
    """A post the body places cannot be deleted: the body would point at nothing."""
    placed = {
        pk
        for code, _name in settings.LANGUAGES
        for pk in embedded_ids(getattr(edit.article, f"body_{code}", ""), "post")
    }
    for row in edit.deleted:
        if isinstance(row, SocialPost) and row.pk in placed:
            raise ValidationError(
                _(
                    "The social post %(post)s is placed in the body; remove it from "
                    "the body before deleting it."
                )
                % {"post": row.handle and f"@{row.handle}" or row.url or row.pk}
            )


def _check_new_posts_known(edit: StoryEdit) -> None:
    """A post placed before it was saved must be saved with the story: a key whose
    row was removed from the form would leave the body pointing at nothing."""
    new_rows = {id(row) for row in edit.changed if row.pk is None}
    known = {key for key, post in edit.new_posts.items() if id(post) in new_rows}
    placed = {
        key
        for code, _name in settings.LANGUAGES
        for key in new_post_keys(
            sanitize_html(getattr(edit.article, f"body_{code}", "") or "")
        )
    }
    if placed - known:
        raise ValidationError(
            _(
                "The body places a new social post that is no longer among the "
                "story's posts (its row was removed). Take it out of the body, or "
                "add the post again and place it."
            ),
            code="placed_post_removed",
        )


@events.sends(events.story_changed, events.story_embargo_changed)
@door(Door.STORY_SAVE)
@transaction.atomic
def article_save(
    *,
    edit: StoryEdit,
    by: AbstractBaseUser,
    action: str | None = None,
    message: str = "",
) -> Article:
    """Create or change an article with its tags and related rows.

    `action` (and `message`) name the change in the audit trail and the revision
    when it is more than a plain creation or change (an import, a restore).
    """
    article = edit.article
    adding = article.pk is None
    require_permission(
        by,
        perms.ADD_ARTICLE if adding else perms.CHANGE_ARTICLE,
        _("You may not add stories.") if adding else _("You may not change stories."),
    )
    # The row lock makes concurrent saves of one story take turns, so each one
    # compares against the version the previous one wrote.
    stored = None if adding else Article.objects.select_for_update().get(pk=article.pk)
    if stored is not None and not may_edit(stored, by):
        raise PermissionDenied(_("You may change only your own drafts; ask an editor."))
    _require_part_permissions(edit, by)
    if stored is not None:
        record_as_found(stored)
        edit.merged = merge_edit(edit, stored).kept_theirs
    embargo_changed = (stored.embargo_until if stored else None) != (
        article.embargo_until
    )
    if embargo_changed:
        require_permission(by, perms.PUBLISH_ARTICLE, _("You may not set an embargo."))
    if adding:
        article.created_by = by
    article.full_clean()
    story_check(edit=edit)
    article.version = (stored.version if stored else 0) + 1
    # Placing posts writes the body again; the search vector is written then, once.
    places_posts = bool(edit.placements or edit.new_posts)
    article.save(index=not places_posts)
    for row in edit.deleted:
        row.delete()
    _rows_save(article, edit.changed)
    if places_posts:
        _place_posts(article, edit)
    # Its last save wrote the search vector of this version: the after-commit
    # reindex (articles.receivers) need not read and write it again.
    article._search_indexed_version = article.version
    # A new story has no tags to compare with: setting none would cost two reads.
    if edit.tags is not None and (edit.tags or not adding):
        article.tags.set(edit.tags)
    action = action or (Action.CREATED if adding else Action.CHANGED)
    audit_record(by=by, action=action, obj=article, message=message)
    events.send_on_commit(
        events.story_changed, instance=article, by=by, action=action, message=message
    )
    if embargo_changed:
        until = article.embargo_until.isoformat() if article.embargo_until else "-"
        audit_record(by=by, action=Action.EMBARGO, obj=article, message=until)
        events.send_on_commit(
            events.story_embargo_changed,
            instance=article,
            by=by,
            action=Action.EMBARGO,
            message=until,
        )
    revision_record(article, by=by, comment=revision_comment(action, message))
    return article


def _require_part_permissions(edit: StoryEdit, by: AbstractBaseUser) -> None:
    """Each row of a story part added, changed or removed needs the permission its
    model's inline asks for: the role matrix gives story writers their parts, and a
    request written by hand gets no further than the form would have."""
    wanted = [
        *(("add" if row.pk is None else "change", row) for row in edit.changed),
        *(("delete", row) for row in edit.deleted),
    ]
    for verb, row in wanted:
        meta = row._meta
        if not by.has_perm(f"{meta.app_label}.{verb}_{meta.model_name}"):
            raise PermissionDenied(
                _("You may not change the %(part)s of stories.")
                % {"part": meta.verbose_name_plural}
            )


def _rows_save(article: Article, rows: list[models.Model]) -> None:
    """Save the story's new and changed rows: new rows of a kind whose save() adds
    nothing to Django's are inserted together, one statement per kind."""
    new: dict[type[models.Model], list[models.Model]] = {}
    for row in rows:
        check_budget()  # an import of thousands of posts saves them here
        row.article = article
        if row.pk is None and type(row).save is models.Model.save:
            new.setdefault(type(row), []).append(row)
        else:
            row.save()
    for model, batch in new.items():
        model.objects.bulk_create(batch)


def _place_posts(article: Article, edit: StoryEdit) -> None:
    """Write the numbers of the posts just saved where the body places them: after
    a block of the story's language (`placements`), or where the editor put them
    before saving (`new_posts`, in every language)."""
    numbers = {key: post.pk for key, post in edit.new_posts.items()}
    for code, _name in settings.LANGUAGES:
        field_name = f"body_{code}"
        body = number_new_posts(getattr(article, field_name, ""), numbers)
        if code == article.language and edit.placements:
            body = place_embeds(
                body, [(after, "post", post.pk) for after, post in edit.placements]
            )
        setattr(article, field_name, body)
    article.save(update_fields=[f"body_{code}" for code, _name in settings.LANGUAGES])


def _move(
    article: Article,
    *,
    by: AbstractBaseUser,
    name: str,
    refusal: str,
    at: datetime | None = None,
    message: str = "",
) -> Article:
    """Make the workflow move `name`: permission and state, the identity gate for
    moves towards the public, the write, the audit event.

    The move reads the story afresh under a row lock and writes only its own
    columns, so a move never carries stale text over someone's newer save.
    """
    transition = MOVES[name]
    if by is None or not by.is_active or not holds_permission(by, transition):
        raise PermissionDenied(refusal)
    current = Article.objects.select_for_update().get(pk=article.pk)
    if not may_make(transition, current, by):
        raise ValidationError(
            _("A story that is “%(state)s” cannot be moved this way.")
            % {"state": Status(current.status).label},
            code="wrong_state",
        )
    record_as_found(current)
    if message:
        IdentityGate.load().check_note(current, message, label=_("reason"))
    if transition.towards_public:
        current.full_clean()
        IdentityGate.load().check(story_rows(current))
    current.status = transition.target
    action = MOVE_ACTIONS[name]
    if name == "publish":
        current.published_at = at or timezone.now()
        if current.published_at > timezone.now():
            action = Action.SCHEDULED
            message = message or current.published_at.isoformat()
    current.version += 1
    moved = ["status", "published_at", "version", "updated_at"]
    current.save(update_fields=moved)
    for name_ in moved:  # keep the caller's copy in step
        setattr(article, name_, getattr(current, name_))
    audit_record(by=by, action=action, obj=current, message=message)
    events.send_on_commit(
        MOVE_EVENTS[name], instance=current, by=by, action=action, message=message
    )
    revision_record(current, by=by, comment=revision_comment(action, message))
    return current


# The workflow's moves, and the one protecting an identity makes (no button).
MOVES = {**TRANSITIONS, WITHDRAW_TO_PROTECT.name: WITHDRAW_TO_PROTECT}
MOVE_ACTIONS = {
    "submit": Action.SUBMITTED,
    "approve": Action.APPROVED,
    "send_back": Action.SENT_BACK,
    "publish": Action.PUBLISHED,
    "withdraw": Action.UNPUBLISHED,
    "kill": Action.KILLED,
    WITHDRAW_TO_PROTECT.name: Action.WITHDRAWN_TO_PROTECT,
}
MOVE_EVENTS = {
    "submit": events.story_moved,
    "approve": events.story_moved,
    "send_back": events.story_moved,
    "publish": events.story_published,
    "withdraw": events.story_unpublished,
    "kill": events.story_killed,
    WITHDRAW_TO_PROTECT.name: events.story_withdrawn,
}


@events.sends(events.story_moved)
@transaction.atomic
def article_submit(*, article: Article, by: AbstractBaseUser) -> Article:
    """Hand a draft to the editors for review."""
    return _move(article, by=by, name="submit", refusal=_("You may not submit it."))


@events.sends(events.story_moved)
@transaction.atomic
def article_approve(*, article: Article, by: AbstractBaseUser) -> Article:
    """Approve a story in review; it is ready to publish or schedule."""
    return _move(
        article, by=by, name="approve", refusal=_("You may not approve stories.")
    )


@events.sends(events.story_moved)
@transaction.atomic
def article_send_back(
    *, article: Article, by: AbstractBaseUser, reason: str = ""
) -> Article:
    """Return a story in review (or approved) to its reporter as a draft."""
    return _move(
        article,
        by=by,
        name="send_back",
        refusal=_("You may not review stories."),
        message=reason,
    )


@events.sends(events.story_published)
@transaction.atomic
def article_publish(
    *, article: Article, by: AbstractBaseUser, at: datetime | None = None
) -> Article:
    """Publish an article now or schedule it at `at`, refusing leaks of protected
    identities; the one way a story reaches readers."""
    return _move(
        article, by=by, name="publish", refusal=_("You may not publish stories."), at=at
    )


@events.sends(events.story_unpublished)
@transaction.atomic
def article_unpublish(
    *, article: Article, by: AbstractBaseUser, reason: str = ""
) -> Article:
    """Take a published (or scheduled) article off the site; it becomes a draft."""
    return _move(
        article,
        by=by,
        name="withdraw",
        refusal=_("You may not unpublish stories."),
        message=reason,
    )


@events.sends(events.story_withdrawn)
@transaction.atomic
def article_withdraw_to_protect(
    *, article: Article, by: AbstractBaseUser, reason: str = ""
) -> Article:
    """Take a public story off the site because it prints a legal name whose person
    is being protected: part of protecting them (`person_save`, its only caller),
    so identity officers may make it without the general withdrawal permission."""
    return _move(
        article,
        by=by,
        name=WITHDRAW_TO_PROTECT.name,
        refusal=_("You may not withdraw stories to protect an identity."),
        message=reason,
    )


@events.sends(events.story_killed)
@transaction.atomic
def article_kill(*, article: Article, by: AbstractBaseUser, reason: str) -> Article:
    """Remove a story for legal or ethical reasons: its address answers 410 and it
    leaves every public output for good."""
    if not reason.strip():
        raise ValidationError(_("Say why the story is killed."), code="no_reason")
    return _move(
        article,
        by=by,
        name="kill",
        refusal=_("You may not kill stories."),
        message=reason.strip(),
    )


# What a restore leaves as it is: the story's place in the workflow and its counters.
_NOT_RESTORED = {
    "id",
    "status",
    "published_at",
    "embargo_until",
    "created_at",
    "created_by_id",
    "version",
}


@events.sends(events.story_changed, events.story_embargo_changed)
@door(Door.STORY_SAVE)
@transaction.atomic
def article_restore(
    *, article: Article, by: AbstractBaseUser, revision: Revision
) -> Article:
    """Bring back the story's words and rows as `revision` recorded them.

    The result is a new revision; the identity gate runs as on any save, and the
    story's state, dates and embargo stay as they are, so a restore never
    publishes by itself.
    """
    shot = snapshot(revision, article)
    if not shot.article:
        raise ValidationError(_("That revision is not of this story."))
    for name, value in shot.article.items():
        if name not in _NOT_RESTORED:
            setattr(article, name, value)
    # Only the parts declared restored come back (the correction ledger only
    # grows: a restore neither removes nor rewrites it).
    parts = story_parts(restored=True)
    models_restored = tuple(part.model for part in parts)
    restored = [row for row in shot.objects if isinstance(row, models_restored)]
    kept = {(type(row), row.pk) for row in restored}
    current = [row for part in parts for row in part.rows(article)]
    edit = StoryEdit(
        article=article,
        tags=shot.tags,
        changed=restored,
        deleted=[row for row in current if (type(row), row.pk) not in kept],
    )
    when = timezone.localtime(revision.date_created).strftime("%Y-%m-%d %H:%M")
    return article_save(edit=edit, by=by, action=Action.RESTORED, message=when)


@events.sends(events.story_deleted)
@transaction.atomic
def article_delete(*, article: Article, by: AbstractBaseUser) -> None:
    """Delete an article and what belongs to it only (people and sources stay)."""
    row_delete(
        article,
        by=by,
        refusal=_("You may not delete stories."),
        event=events.story_deleted,
    )
