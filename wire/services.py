"""The wire's writes, one door each: receiving an agency item (new, newer version,
kill), taking it as a draft, applying an update an editor was offered.

Every draft is made by the importer (`ingest.services.story_import`): the same
parsing, proposals, social posts, identity gate and audit as a paste.
"""

import logging
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from arabic import search_fold
from articles import permissions as perms
from articles.models import Article, Status
from articles.services import (
    StoryEdit,
    article_kill,
    article_save,
    require_permission,
    row_save,
)
from audit.services import audit_record
from core import events
from identity.gate import IdentityLeakError
from identity.refusals import refusal_kept
from ingest.problems import StoryImportError, error
from ingest.result import Confirmation, ImportResult
from ingest.services import import_refusal_record, story_import, story_recognize

from .audit_actions import Action
from .drafts import item_copy, wire_prepare
from .formats import WireItem
from .models import AgencyItem, Alert, Channel, ChannelLog, TopicSection
from .queueing import pictures_fetch_after_commit

logger = logging.getLogger(__name__)

NEW, UPDATED, SEEN, KILLED = "new", "updated", "seen", "killed"
# The wire's own audit records (received, taken, offered) send no domain event:
# they change no public page, and announcing them would purge every cached page
# once per item. The story's own saves send theirs (article_save).

# What the agency's copy may change on its own: a story readers see is never
# rewritten without an editor.
_FOLLOWS_AGENCY = {Status.DRAFT, Status.IN_REVIEW, Status.APPROVED}


def wire_receive(
    *, channel: Channel, item: WireItem, now: datetime | None = None
) -> tuple[AgencyItem, str]:
    """Record one agency item: new, a newer version of one we hold, or a kill.

    The same or an older version changes nothing ("seen"), so a feed read again or
    a file delivered twice imports nothing twice. A newer version updates the
    draft made of the item; a story readers see is offered the update instead.
    A kill alerts the story and withdraws (kills) a draft. Returns the row and
    what happened: "new", "updated", "seen" or "killed".
    """
    now = now or timezone.now()
    by = channel.acting_user
    # Within a poll's transaction for the whole file no savepoint is needed: an
    # error here undoes the file, and nothing else.
    with transaction.atomic(savepoint=False):
        row = (
            AgencyItem.objects.select_for_update(of=("self",))
            .select_related("article", "channel", "source")
            .filter(source_id=channel.source_id, guid=item.guid)
            .first()
        )
        if row is None:
            row = AgencyItem(
                source_id=channel.source_id,
                channel=channel,
                guid=item.guid,
                received_at=now,
                payload=item.as_json(),
            )
            row.fill_from(item)
            row.save()
            audit_record(
                by=by,
                action=Action.RECEIVED,
                obj=row,
                message=_version(item),
            )
            return row, KILLED if item.is_kill else NEW
        if item.version <= row.version:
            return row, SEEN
        fetched = {p.get("href") for p in (row.payload or {}).get("pictures", [])}
        row.fill_from(item)
        row.received_at = now
        row.channel = channel
        if item.is_kill:
            _kill(row, item, by)
            outcome = KILLED
        elif row.article is not None:
            _follow(row, item, by, now)
            if row.alert == "" and any(p.href not in fetched for p in item.pictures):
                # A picture the agency added: into the library like the first ones.
                pictures_fetch_after_commit(row, by)
            outcome = UPDATED
        else:
            # Not taken: the list shows the new version (a reinstated item too).
            row.alert, row.alert_detail = "", ""
            outcome = UPDATED
        row.save()
        audit_record(
            by=by,
            action=Action.KILLED if item.is_kill else Action.UPDATED,
            obj=row,
            message=_version(item),
        )
        return row, outcome


def _version(item: WireItem) -> str:
    return f"{item.guid} v{item.version}"


def _kill(row: AgencyItem, item: WireItem, by: AbstractBaseUser) -> None:
    """Alert the story; a story readers do not see yet is killed (withdrawn)."""
    row.pending = None
    row.alert, row.alert_detail = Alert.KILLED, ""
    article = row.article
    if article is None or article.status not in _FOLLOWS_AGENCY:
        return
    try:
        with transaction.atomic():
            article_kill(
                article=article,
                by=by,
                reason=_("Withdrawn by the agency (%(item)s).")
                % {"item": _version(item)},
            )
    except (PermissionDenied, ValidationError) as exc:
        row.alert, row.alert_detail = Alert.KILL_FAILED, _reason(exc)


def _follow(row: AgencyItem, item: WireItem, by: AbstractBaseUser, now) -> None:
    """Bring the agency's new version into the draft, merged with the editors'
    changes; offer it instead when the story is public or the changes collide."""
    article = row.article
    if article.status == Status.KILLED:
        return
    if article.status not in _FOLLOWS_AGENCY or article.is_public:
        row.pending = item.as_json()
        row.alert, row.alert_detail = Alert.UPDATE_OFFERED, ""
        audit_record(
            by=by,
            action=Action.UPDATE_OFFERED,
            obj=row,
            message=_version(item),
        )
        return
    try:
        with transaction.atomic():
            saved = story_update(
                article=article,
                item=item,
                by=by,
                base_version=row.article_version,
                action=Action.UPDATED,
                now=now,
            )
    except (
        StoryImportError,
        ValidationError,
        PermissionDenied,
        IdentityLeakError,
    ) as exc:
        refusal_recorded(exc, by)
        row.pending = item.as_json()
        row.alert, row.alert_detail = Alert.MERGE_FAILED, _reason(exc)
        return
    row.article_version = saved.version
    row.pending = None
    row.alert, row.alert_detail = "", ""


def refusal_recorded(exc: Exception, by: AbstractBaseUser) -> None:
    """After an agency update was refused and its transaction rolled back: keep
    the identity gate's refusal in the audit trail, as a paste's is kept."""
    if isinstance(exc, IdentityLeakError):
        refusal_kept(exc)
    elif isinstance(exc, StoryImportError) and exc.result is not None:
        import_refusal_record(exc.result, by)


def _reason(exc: Exception) -> str:
    if isinstance(exc, StoryImportError):
        return "; ".join(str(p.message) for p in exc.errors)[:300]
    return " ".join(getattr(exc, "messages", [str(exc)]))[:300]


def story_update(
    *,
    article: Article,
    item: WireItem,
    by: AbstractBaseUser,
    base_version: int | None,
    action: str,
    now: datetime,
) -> Article:
    """Write the item's headline, summary, body and embargo into the story, read
    by the importer (the identity gate included); `base_version` merges the
    editors' changes since the wire last wrote."""
    result = story_recognize(
        text=item_copy(item), allow_duplicate=True, now=now, language=article.language
    )
    if result.errors:
        raise StoryImportError(result.errors, result)
    story = result.story
    article = Article.objects.get(pk=article.pk)
    code = article.language
    setattr(article, f"headline_{code}", story.headline)
    setattr(article, f"summary_{code}", item.summary or story.summary)
    setattr(article, f"body_{code}", story.body_html())
    if item.embargo and item.embargo > now and not article.is_public:
        article.embargo_until = item.embargo
    edit = StoryEdit(article=article, base_version=base_version)
    return article_save(edit=edit, by=by, action=action, message=_version(item))


def wire_take(
    *, agency_item: AgencyItem, by: AbstractBaseUser, now: datetime | None = None
) -> ImportResult:
    """Make a draft of an agency item now, through the importer, and return what
    it recognized (`.article` is the draft): known people are linked and the
    tags it proposes (existing tags the copy names, its hashtags) are accepted;
    new people stay proposals, for the editor (`.proposed_people`). Raises
    StoryImportError: the importer's problems, or why it cannot be taken."""
    now = now or timezone.now()
    if not by.has_perm(perms.VIEW_AGENCYITEM):
        raise _refused(
            _("You may not take stories from the wire."), code="permission_denied"
        )
    failure = None
    # The import's refusals are recorded in this transaction, outside the
    # import's own: caught here, they survive the draft's rollback.
    with transaction.atomic():
        row = (
            AgencyItem.objects.select_for_update(of=("self",))
            .select_related("source", "channel")
            .get(pk=agency_item.pk)
        )
        if row.article_id:
            raise _refused(
                _("This item was taken already: story #%(id)s.")
                % {"id": row.article_id},
                code="already_taken",
            )
        if row.status != AgencyItem.Status.USABLE:
            raise _refused(
                _("The agency withdrew this item; it cannot be taken."),
                code="withdrawn_by_agency",
            )
        item = row.item
        try:
            result = story_import(
                text=item_copy(item),
                by=by,
                allow_duplicate=True,
                confirmation=Confirmation(),
                origin=_("wire: %(source)s %(item)s")
                % {"source": row.source, "item": _version(item)},
                now=now,
                prepare=wire_prepare(row, item, now=now),
                language=item.language,
            )
        except StoryImportError as exc:
            failure = exc
        else:
            row.article = result.article
            row.article_version = result.article.version
            row.save(update_fields=["article", "article_version"])
            audit_record(
                by=by,
                action=Action.TAKEN,
                obj=row,
                message=_version(item),
            )
            if item.pictures:
                pictures_fetch_after_commit(row, by)
            return result
    raise failure


def _refused(message: str, *, code: str) -> StoryImportError:
    return StoryImportError([error(message, code=code)])


@transaction.atomic
def wire_update_apply(
    *, agency_item: AgencyItem, by: AbstractBaseUser, now: datetime | None = None
) -> Article:
    """Apply the agency's offered version to the story, as the editor asked."""
    row = AgencyItem.objects.select_for_update().get(pk=agency_item.pk)
    if row.pending is None or row.article_id is None:
        raise ValidationError(_("There is no agency update to apply."))
    require_permission(by, perms.CHANGE_ARTICLE, _("You may not change stories."))
    article = story_update(
        article=row.article,
        item=WireItem.from_json(row.pending),
        by=by,
        base_version=None,
        action=Action.UPDATE_APPLIED,
        now=now or timezone.now(),
    )
    row.pending = None
    row.alert, row.alert_detail = "", ""
    row.article_version = article.version
    row.search_text = search_fold(row.headline)
    row.save()
    audit_record(by=by, action=Action.UPDATE_APPLIED, obj=row)
    return article


def channel_save(*, channel: Channel, by: AbstractBaseUser) -> Channel:
    """Add or change a channel (source managers): permission, checks, audit."""
    stored = Channel.objects.filter(pk=channel.pk).first() if channel.pk else None
    if stored is not None and stored.url != channel.url:
        # Another feed: the old one's validators mean nothing to it.
        channel.feed_etag = channel.feed_modified = ""
    return row_save(
        channel,
        by=by,
        refusal=_("You may not change wire channels."),
        event=events.wire_settings_changed,
    )


def topic_section_save(*, mapping: TopicSection, by: AbstractBaseUser) -> TopicSection:
    """Map a Media Topic to a section (editors): permission, checks, audit."""
    return row_save(
        mapping,
        by=by,
        refusal=_("You may not change the topic mapping."),
        event=events.wire_settings_changed,
    )


@transaction.atomic
def wire_prune(*, before: datetime, by: AbstractBaseUser | None = None) -> int:
    """Remove items received before `before` that nobody took, and the channels'
    log lines as old; items taken stay, since they tie the agency's later
    versions and kills to their stories. Returns how many items went."""
    items, _kinds = AgencyItem.objects.filter(
        received_at__lt=before, article__isnull=True
    ).delete()
    ChannelLog.objects.filter(at__lt=before).delete()
    audit_record(
        by=by,
        action=Action.PRUNED,
        message=f"{items} before {before:%Y-%m-%d %H:%M}",
    )
    return items
