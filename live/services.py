"""The live desk's one door: start, pause and end a coverage; add, change, pin,
correct and delete its entries.

Each service checks permission, validates (the identity gate on every text a
reader will see), writes, records an audit event and sends its domain event
(core.events) after commit. An entry's write touches only its own row and the
story's modified time, never the story's version: editors adding entries at once
never conflict with each other, nor with an editor saving the story's form.
"""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from articles import permissions as perms
from articles.models import Article, SocialPost, Status
from articles.services.base import require_permission
from audit.services import audit_record
from core import events
from identity.gate import IdentityGate
from identity.refusals import door
from images.models import Image

from .audit_actions import Action
from .models import LiveCoverage, LiveEntry

ENTRY_DOOR = "live entry"
LANGUAGES = ("ar", "en")
State = LiveCoverage.State


def _touch(article: Article) -> None:
    """Move the story's modified time (not its version): its page, feed and
    sitemap entry show it changed, and its cached fragments are rendered afresh."""
    now = timezone.now()
    Article.objects.filter(pk=article.pk).update(updated_at=now)
    article.updated_at = now


# ------------------------------------------------------------ the coverage


def _coverage_move(
    *, article: Article, by: AbstractBaseUser, to: str, action: str
) -> LiveCoverage:
    require_permission(
        by, perms.RUN_LIVECOVERAGE, _("You may not start, pause or end live coverage.")
    )
    if article.status == Status.KILLED:
        raise ValidationError(_("A killed story cannot be covered live."))
    coverage = LiveCoverage.objects.select_for_update().filter(article=article).first()
    if coverage is None:
        if to != State.LIVE:
            raise ValidationError(_("This story is not a live coverage."))
        coverage = LiveCoverage(article=article, state=to)
    elif coverage.state == State.ENDED:
        raise ValidationError(
            _("This live coverage has ended; it is an ordinary story now.")
        )
    elif coverage.state == to:
        return coverage
    coverage.state = to
    if to == State.ENDED:
        coverage.ended_at = timezone.now()
    coverage.save()
    _touch(article)
    audit_record(by=by, action=action, obj=article)
    events.send_on_commit(
        events.live_coverage_changed, instance=article, by=by, action=action
    )
    return coverage


@events.sends(events.live_coverage_changed)
@transaction.atomic
def live_start(*, article: Article, by: AbstractBaseUser) -> LiveCoverage:
    """Make the story a live coverage, or resume a paused one."""
    return _coverage_move(article=article, by=by, to=State.LIVE, action=Action.STARTED)


@events.sends(events.live_coverage_changed)
@transaction.atomic
def live_pause(*, article: Article, by: AbstractBaseUser) -> LiveCoverage:
    """Pause the coverage: readers are told updates have paused."""
    return _coverage_move(article=article, by=by, to=State.PAUSED, action=Action.PAUSED)


@events.sends(events.live_coverage_changed)
@transaction.atomic
def live_end(*, article: Article, by: AbstractBaseUser) -> LiveCoverage:
    """End the coverage for good: the page says so and stops asking for updates."""
    return _coverage_move(article=article, by=by, to=State.ENDED, action=Action.ENDED)


# ------------------------------------------------------------ entries


def _texts(headline: dict[str, str], body: dict[str, str]) -> dict[str, str]:
    fields = {}
    for code in LANGUAGES:
        fields[f"headline_{code}"] = (headline.get(code) or "").strip()
        fields[f"body_{code}"] = (body.get(code) or "").strip()
    return fields


def _entry_check(entry: LiveEntry) -> None:
    """Refuse an entry that says nothing, places what is not the story's, or holds
    a protected legal name (in its text, or its picture's)."""
    if not any(
        getattr(entry, f"body_{code}") or getattr(entry, f"headline_{code}")
        for code in LANGUAGES
    ) and not (entry.post_id or entry.image_id):
        raise ValidationError(
            _("Write the entry, or place a post or a picture in it."), code="empty"
        )
    if entry.post_id and entry.post.article_id != entry.article_id:
        raise ValidationError(_("That social post belongs to another story."))
    entry.full_clean(exclude=["author", "article"])
    shown = [entry, *([entry.image] if entry.image_id else [])]
    IdentityGate.load().check(shown)


def _live_coverage(article: Article) -> LiveCoverage:
    coverage = LiveCoverage.objects.filter(article=article).first()
    if coverage is None:
        raise ValidationError(_("Start the live coverage before adding entries."))
    if coverage.state == State.ENDED:
        raise ValidationError(
            _("This live coverage has ended; it takes no more entries.")
        )
    return coverage


@events.sends(events.live_entry_changed)
@door(ENTRY_DOOR)
@transaction.atomic
def live_entry_add(
    *,
    article: Article,
    by: AbstractBaseUser,
    headline: dict[str, str] | None = None,
    body: dict[str, str] | None = None,
    post: SocialPost | None = None,
    image: Image | None = None,
    is_key_event: bool = False,
    is_pinned: bool = False,
) -> LiveEntry:
    """Post an entry to the story's live coverage, now, signed by `by`."""
    require_permission(by, perms.ADD_LIVEENTRY, _("You may not add live entries."))
    _live_coverage(article)
    entry = LiveEntry(
        article=article,
        author=by,
        post=post,
        image=image,
        is_key_event=is_key_event,
        is_pinned=is_pinned,
        **_texts(headline or {}, body or {}),
    )
    _entry_check(entry)
    entry.save()
    _touch(article)
    audit_record(by=by, action=Action.ENTRY_ADDED, obj=entry)
    events.send_on_commit(
        events.live_entry_changed, instance=entry, by=by, action=Action.ENTRY_ADDED
    )
    return entry


def _stored(entry: LiveEntry) -> LiveEntry:
    """The entry as stored, locked, refused if deleted or its coverage ended."""
    stored = LiveEntry.objects.select_for_update().filter(pk=entry.pk).first()
    if stored is None:
        raise ValidationError(_("This entry has been deleted."))
    _live_coverage(stored.article)
    return stored


@events.sends(events.live_entry_changed)
@door(ENTRY_DOOR)
@transaction.atomic
def live_entry_change(
    *,
    entry: LiveEntry,
    by: AbstractBaseUser,
    headline: dict[str, str] | None = None,
    body: dict[str, str] | None = None,
    post: SocialPost | None = None,
    image: Image | None = None,
    is_key_event: bool = False,
) -> LiveEntry:
    """Change an entry's text, post, picture or key-event flag; its time stays."""
    require_permission(
        by, perms.CHANGE_LIVEENTRY, _("You may not change live entries.")
    )
    stored = _stored(entry)
    for name, value in _texts(headline or {}, body or {}).items():
        setattr(stored, name, value)
    stored.post, stored.image, stored.is_key_event = post, image, is_key_event
    _entry_check(stored)
    stored.save()
    _touch(stored.article)
    audit_record(by=by, action=Action.ENTRY_CHANGED, obj=stored)
    events.send_on_commit(
        events.live_entry_changed, instance=stored, by=by, action=Action.ENTRY_CHANGED
    )
    return stored


@events.sends(events.live_entry_changed)
@transaction.atomic
def live_entry_pin(
    *, entry: LiveEntry, by: AbstractBaseUser, pinned: bool
) -> LiveEntry:
    """Pin an entry above the others, or unpin it."""
    require_permission(by, perms.CHANGE_LIVEENTRY, _("You may not pin live entries."))
    stored = _stored(entry)
    if stored.is_pinned != pinned:
        stored.is_pinned = pinned
        stored.save(update_fields=["is_pinned", "updated_at"])
        _touch(stored.article)
        action = Action.ENTRY_PINNED if pinned else Action.ENTRY_UNPINNED
        audit_record(by=by, action=action, obj=stored)
        events.send_on_commit(
            events.live_entry_changed, instance=stored, by=by, action=action
        )
    return stored


@events.sends(events.live_entry_changed)
@door(ENTRY_DOOR)
@transaction.atomic
def live_entry_correct(
    *, entry: LiveEntry, by: AbstractBaseUser, text: dict[str, str]
) -> LiveEntry:
    """Print a correction on the entry (it replaces an earlier one), now dated."""
    require_permission(
        by, perms.CHANGE_LIVEENTRY, _("You may not correct live entries.")
    )
    stored = LiveEntry.objects.select_for_update().filter(pk=entry.pk).first()
    if stored is None:
        raise ValidationError(_("This entry has been deleted."))
    texts = {code: (text.get(code) or "").strip() for code in LANGUAGES}
    if not any(texts.values()):
        raise ValidationError(
            _("Write the correction in Arabic, in English or in both."), code="empty"
        )
    for code, value in texts.items():
        setattr(stored, f"correction_{code}", value)
    stored.corrected_at = timezone.now()
    IdentityGate.load().check([stored])
    stored.save()
    _touch(stored.article)
    audit_record(by=by, action=Action.ENTRY_CORRECTED, obj=stored)
    events.send_on_commit(
        events.live_entry_changed, instance=stored, by=by, action=Action.ENTRY_CORRECTED
    )
    return stored


@events.sends(events.live_entry_changed)
@transaction.atomic
def live_entry_delete(*, entry: LiveEntry, by: AbstractBaseUser, reason: str) -> None:
    """Take an entry off the page for good, with the reason (kept, never shown)."""
    require_permission(
        by, perms.DELETE_LIVEENTRY, _("You may not delete live entries.")
    )
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Say why the entry is deleted."), code="no_reason")
    IdentityGate.load().check_note(entry, reason, label=_("reason"))
    stored = LiveEntry.objects.select_for_update().filter(pk=entry.pk).first()
    if stored is None:
        raise ValidationError(_("This entry has been deleted."))
    stored.deleted_at = timezone.now()
    stored.deleted_reason = reason[:300]
    stored.save(update_fields=["deleted_at", "deleted_reason", "updated_at"])
    _touch(stored.article)
    audit_record(by=by, action=Action.ENTRY_DELETED, obj=stored, message=reason[:300])
    events.send_on_commit(
        events.live_entry_changed,
        instance=stored,
        by=by,
        action=Action.ENTRY_DELETED,
        message=reason[:300],
    )
