"""Writes that matter to the newsroom: saving, publishing and removing stories, and
sharing their previews.

Every service takes the acting user as `by` and, in one transaction, checks that
user's permission, validates (the identity gate included), writes, records an audit
event and announces the change for side effects after commit. The admin, imports and
commands only gather input and call these.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from reversion.models import Revision
from taggit.models import Tag

from audit.models import AuditEvent
from audit.services import audit_record

from .concurrency import merge_edit
from .identity import IdentityGate, public_exposures, story_rows
from .models import Article, Correction, Person, PreviewLink, Section, Status
from .models.preview import PREVIEW_HOURS, PREVIEW_MAX_HOURS
from .revisions import revision_record, snapshot
from .workflow import TRANSITIONS, may_edit, may_make

Action = AuditEvent.Action


def require_permission(by: AbstractBaseUser, permission: str, refusal: str) -> None:
    """Raise PermissionDenied with `refusal` unless `by` holds `permission`."""
    if by is None or not by.is_active or not by.has_perm(permission):
        raise PermissionDenied(refusal)


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
        "articles.add_article" if adding else "articles.change_article",
        _("You may not add stories.") if adding else _("You may not change stories."),
    )
    # The row lock makes concurrent saves of one story take turns, so each one
    # compares against the version the previous one wrote.
    stored = None if adding else Article.objects.select_for_update().get(pk=article.pk)
    if stored is not None and not may_edit(stored, by):
        raise PermissionDenied(_("You may change only your own drafts; ask an editor."))
    if stored is not None:
        edit.merged = merge_edit(edit, stored).kept_theirs
    embargo_changed = (stored.embargo_until if stored else None) != (
        article.embargo_until
    )
    if embargo_changed:
        require_permission(
            by, "articles.publish_article", _("You may not set an embargo.")
        )
    if adding:
        article.created_by = by
    article.full_clean()
    story_check(edit=edit)
    article.version = (stored.version if stored else 0) + 1
    article.save()
    for row in edit.deleted:
        row.delete()
    for row in edit.changed:
        row.article = article
        row.save()
    if edit.tags is not None:
        article.tags.set(edit.tags)
    action = action or (Action.CREATED if adding else Action.CHANGED)
    audit_record(by=by, action=action, obj=article, message=message)
    if embargo_changed:
        until = article.embargo_until.isoformat() if article.embargo_until else "-"
        audit_record(by=by, action=Action.EMBARGO, obj=article, message=until)
    revision_record(article, by=by, comment=_comment(action, message))
    return article


def _comment(action: str, message: str = "") -> str:
    """A revision's comment: what was done, and the detail the audit event holds."""
    label = str(Action(action).label)
    return f"{label}: {message}" if message else label


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
    moves towards the public, the write, the audit event."""
    transition = TRANSITIONS[name]
    require_permission(by, transition.permission, refusal)
    if not may_make(transition, article, by):
        raise ValidationError(
            _("A story that is “%(state)s” cannot be moved this way.")
            % {"state": Status(article.status).label},
            code="wrong_state",
        )
    if transition.towards_public:
        article.full_clean()
        IdentityGate.load().check(story_rows(article))
    article.status = transition.target
    action = MOVE_ACTIONS[name]
    if name == "publish":
        article.published_at = at or timezone.now()
        if article.published_at > timezone.now():
            action = Action.SCHEDULED
            message = message or article.published_at.isoformat()
    article.version += 1
    article.save()
    audit_record(by=by, action=action, obj=article, message=message)
    revision_record(article, by=by, comment=_comment(action, message))
    return article


MOVE_ACTIONS = {
    "submit": Action.SUBMITTED,
    "approve": Action.APPROVED,
    "send_back": Action.SENT_BACK,
    "publish": Action.PUBLISHED,
    "withdraw": Action.UNPUBLISHED,
    "kill": Action.KILLED,
}


@transaction.atomic
def article_submit(*, article: Article, by: AbstractBaseUser) -> Article:
    """Hand a draft to the editors for review."""
    return _move(article, by=by, name="submit", refusal=_("You may not submit it."))


@transaction.atomic
def article_approve(*, article: Article, by: AbstractBaseUser) -> Article:
    """Approve a story in review; it is ready to publish or schedule."""
    return _move(
        article, by=by, name="approve", refusal=_("You may not approve stories.")
    )


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


@transaction.atomic
def article_publish(
    *, article: Article, by: AbstractBaseUser, at: datetime | None = None
) -> Article:
    """Publish an article now or schedule it at `at`, refusing leaks of protected
    identities; the one way a story reaches readers."""
    return _move(
        article, by=by, name="publish", refusal=_("You may not publish stories."), at=at
    )


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
    # The correction ledger only grows: a restore neither removes nor rewrites it.
    restored = [row for row in shot.objects if not isinstance(row, Correction)]
    kept = {(type(row), row.pk) for row in restored}
    current = [
        row
        for relation in ("bylines", "people_named", "social_posts", "attributions")
        for row in getattr(article, relation).all()
    ]
    edit = StoryEdit(
        article=article,
        tags=shot.tags,
        changed=restored,
        deleted=[row for row in current if (type(row), row.pk) not in kept],
    )
    when = timezone.localtime(revision.date_created).strftime("%Y-%m-%d %H:%M")
    return article_save(edit=edit, by=by, action=Action.RESTORED, message=when)


@transaction.atomic
def article_delete(*, article: Article, by: AbstractBaseUser) -> None:
    """Delete an article and what belongs to it only (people and sources stay)."""
    row_delete(article, by=by, refusal=_("You may not delete stories."))


# ------------------------------------------------------------ desks and tags


def public_rows_check(*rows: models.Model) -> None:
    """Refuse rows whose public fields (names, slugs) hold a protected legal name."""
    IdentityGate.load().check(rows)


def row_save(
    obj: models.Model,
    *,
    by: AbstractBaseUser,
    refusal: str,
    related: Iterable[models.Model] = (),
) -> models.Model:
    """Save a row that public pages show (with `related` rows shown beside it):
    permission to add or change it, the identity gate, the write, the audit."""
    adding = obj.pk is None
    meta = obj._meta
    verb = "add" if adding else "change"
    require_permission(by, f"{meta.app_label}.{verb}_{meta.model_name}", refusal)
    obj.full_clean()
    related = list(related)
    public_rows_check(obj, *related)
    obj.save()
    audit_record(by=by, action=Action.CREATED if adding else Action.CHANGED, obj=obj)
    return obj


def row_delete(obj: models.Model, *, by: AbstractBaseUser, refusal: str) -> None:
    """Delete a row, with permission, leaving its trace in the audit trail."""
    meta = obj._meta
    require_permission(by, f"{meta.app_label}.delete_{meta.model_name}", refusal)
    audit_record(by=by, action=Action.DELETED, obj=obj)
    obj.delete()


@transaction.atomic
def section_save(*, section: Section, by: AbstractBaseUser) -> Section:
    """Create or rename a section; its name and address show on every page."""
    return row_save(section, by=by, refusal=_("You may not change sections."))


@transaction.atomic
def section_delete(*, section: Section, by: AbstractBaseUser) -> None:
    row_delete(section, by=by, refusal=_("You may not delete sections."))


@transaction.atomic
def tag_save(*, tag: Tag, by: AbstractBaseUser) -> Tag:
    """Create or rename a tag; its name and address show on public pages."""
    return row_save(tag, by=by, refusal=_("You may not change tags."))


@transaction.atomic
def tag_delete(*, tag: Tag, by: AbstractBaseUser) -> None:
    row_delete(tag, by=by, refusal=_("You may not delete tags."))


# ------------------------------------------------------------ people


class IdentityExposedError(ValidationError):
    """A person cannot become protected while public output already names them.

    `stories` may be withdrawn in the same step; `other_rows` (a section, a source)
    must be renamed first. The message names neither the person nor the name.
    """

    def __init__(self, stories: list[Article], other_rows: list[models.Model]):
        self.stories, self.other_rows = stories, other_rows
        parts = []
        if stories:
            parts.append(
                _("Public stories already carry this legal name: %(stories)s.")
                % {"stories": "; ".join(f"#{a.pk} {a}" for a in stories)}
            )
        if other_rows:
            parts.append(
                _("It also appears in: %(rows)s; rename them first.")
                % {"rows": "; ".join(str(row) for row in other_rows)}
            )
        if stories:
            parts.append(
                _("Fix the stories first, or withdraw them from the site in this step.")
            )
        super().__init__(" ".join(parts), code="identity_exposed")


def _legal_view_needed(person: Person, stored: Person | None) -> bool:
    """Whether saving `person` touches a legal name the user must be entitled to."""
    if stored is None or not stored.identity_protected:
        return False
    return (
        not person.identity_protected
        or person.legal_spellings != stored.legal_spellings
    )


def person_check(*, person: Person, withdraw: bool = False) -> list[Article]:
    """Refuse a person whose public names leak a protected name, or whose new legal
    spelling public output already shows; return the stories `withdraw` would take
    off the site."""
    IdentityGate.load(pending=[person]).check([person])
    stored = Person.objects.filter(pk=person.pk).first() if person.pk else None
    known = set(stored.legal_spellings) if stored else set()
    new_spellings = [s for s in person.legal_spellings if s not in known]
    if not new_spellings:
        return []
    probe = Person(pk=person.pk, name=new_spellings[0], identity_protected=True)
    probe.other_spellings = "\n".join(new_spellings[1:])
    exposures = public_exposures(IdentityGate([probe]))
    stories = [e.article for e in exposures if e.article is not None]
    others = [leak.obj for e in exposures if e.article is None for leak in e.leaks]
    if others or (stories and not withdraw):
        raise IdentityExposedError(stories, list(dict.fromkeys(others)))
    return stories


@transaction.atomic
def person_save(
    *, person: Person, by: AbstractBaseUser, withdraw: bool = False
) -> Person:
    """Create or change a person, and protect an identity without leaving it exposed.

    When protection is switched on or a legal spelling added, nothing public may
    still carry the name: stories that do are refused by name, or, with `withdraw`,
    taken off the site (each unpublished and audited) in the same transaction.
    """
    adding = person.pk is None
    require_permission(
        by,
        "articles.add_person" if adding else "articles.change_person",
        _("You may not change people."),
    )
    stored = None if adding else Person.objects.filter(pk=person.pk).first()
    if _legal_view_needed(person, stored):
        require_permission(
            by,
            "articles.view_legal_name",
            _("Only identity officers may change or reveal a protected legal name."),
        )
    person.full_clean()
    for article in person_check(person=person, withdraw=withdraw):
        article_unpublish(
            article=article,
            by=by,
            reason=_("withdrawn: it named a person whose identity is now protected"),
        )
    newly_protected = person.identity_protected and not (
        stored and stored.identity_protected
    )
    person.save()
    action = Action.CREATED if adding else Action.CHANGED
    audit_record(
        by=by, action=Action.PROTECTED if newly_protected else action, obj=person
    )
    return person


@transaction.atomic
def person_delete(*, person: Person, by: AbstractBaseUser) -> None:
    row_delete(person, by=by, refusal=_("You may not delete people."))


# ------------------------------------------------------------ corrections


@transaction.atomic
def correction_add(
    *,
    article: Article,
    by: AbstractBaseUser,
    kind: str,
    text_ar: str = "",
    text_en: str = "",
) -> Correction:
    """Print a correction, clarification or update at the end of a story.

    Drafts and public stories alike; the permission decides who may. The story's
    modified date moves to now, so readers and search engines see it changed.
    """
    require_permission(
        by, "articles.add_correction", _("You may not add corrections to stories.")
    )
    if article.status == Status.KILLED:
        raise ValidationError(_("A killed story takes no corrections."))
    correction = Correction(
        article=article,
        kind=kind,
        text_ar=text_ar.strip(),
        text_en=text_en.strip(),
        created_by=by,
    )
    correction.full_clean()  # a kind we know, and text in at least one language
    IdentityGate.load().check(story_rows(article, changed=[correction]))
    correction.save()
    article.version += 1
    article.save(update_fields=["updated_at", "version"])
    audit_record(by=by, action=Action.CORRECTED, obj=article, message=kind)
    revision_record(article, by=by, comment=_comment(Action.CORRECTED, kind))
    return correction


# ------------------------------------------------------------ preview links


@transaction.atomic
def preview_link_create(
    *, article: Article, by: AbstractBaseUser, hours: int = PREVIEW_HOURS
) -> PreviewLink:
    """Create a link that shows the story as saved to anyone holding it, for `hours`.

    A story that holds a protected legal name is refused, as it would be at publishing:
    the link's reader is public.
    """
    require_permission(
        by, "articles.change_article", _("You may not share previews of stories.")
    )
    if article.status == Status.KILLED:
        raise ValidationError(_("A killed story cannot be shared."))
    if not 1 <= hours <= PREVIEW_MAX_HOURS:
        raise ValidationError(
            _("A preview link lasts between 1 and %(max)s hours.")
            % {"max": PREVIEW_MAX_HOURS},
            code="preview_hours",
        )
    IdentityGate.load().check(story_rows(article))
    now = timezone.now()
    link = PreviewLink(
        article=article,
        created_by=by,
        created_at=now,
        expires_at=now + timedelta(hours=hours),
    )
    link.full_clean()
    link.save()
    # The token stays out of the trail: whoever reads it could open the story.
    audit_record(
        by=by,
        action=Action.PREVIEW_SHARED,
        obj=article,
        message=_("%(link)s, valid until %(until)s")
        % {"link": link, "until": link.expires_at.isoformat()},
        side_effects=False,  # nothing public changed
    )
    return link


@transaction.atomic
def preview_link_revoke(*, link: PreviewLink, by: AbstractBaseUser) -> PreviewLink:
    """Stop a preview link from opening its story; revoking twice changes nothing."""
    require_permission(
        by, "articles.change_article", _("You may not revoke previews of stories.")
    )
    if link.revoked_at is not None:
        return link
    link.revoked_at = timezone.now()
    link.save(update_fields=["revoked_at"])
    audit_record(
        by=by,
        action=Action.PREVIEW_REVOKED,
        obj=link.article,
        message=str(link),
        side_effects=False,
    )
    return link
