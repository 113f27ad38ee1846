"""The release log: one row for each change of a story a partner must see, per
edition, written after the change commits.

The editorial services send a domain event for every committed change of a story
(core.events, the `STORY` group); this app's receiver (distribution.receivers,
connected in its `ready()`: the editorial side never imports us) turns those of
stories that were or are public into releases with `release_for_change`, then
schedules their fan-out to webhooks. Partners sync by walking the log in
(visible_at, id) order (`visible_releases`):

- A scheduled or embargoed story goes live by itself, with no write. Its row is
  written when it is scheduled, with `visible_at` at its publication time (or the
  embargo's end), and is listed only from then on, sorted there: after every
  cursor handed out before that time, so no partner's sync skips it.
- A row becomes visible only once it is SETTLE seconds old. Rows are written in
  their own short transaction right after the change commits, stamped with the
  time they were written; one that commits late (after a row written later) is
  still listed before any cursor passes its place, unless its commit took longer
  than the settle window.
- Only the newest visible row of each story and edition is listed: a partner that
  syncs rarely gets a story's present version once, not every step to it.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from articles.audit_actions import Action
from articles.models import Article, Status

from .models import Event, Release

# Editorial actions on a story, and what a partner is told of each. Changes of a
# story that is not public (or scheduled) are not releases, except those that take
# a released story away.
_WHILE_PUBLIC = {
    Action.CREATED: Event.UPDATED,
    Action.CHANGED: Event.UPDATED,
    Action.RESTORED: Event.UPDATED,
    Action.EMBARGO: Event.UPDATED,
    Action.PUBLISHED: Event.PUBLISHED,
    Action.SCHEDULED: Event.PUBLISHED,
    Action.CORRECTED: Event.CORRECTED,
}
_TAKEN_AWAY = {
    Action.UNPUBLISHED: Event.UNPUBLISHED,
    Action.WITHDRAWN_TO_PROTECT: Event.UNPUBLISHED,
    Action.KILLED: Event.KILLED,
}


def settle() -> timedelta:
    """How old a release must be before partners see it."""
    return timedelta(seconds=settings.PARTNER_API_SETTLE_SECONDS)


def editions(article: Article) -> list[str]:
    """The languages the story has a headline in."""
    return [
        code
        for code, _name in settings.LANGUAGES
        if getattr(article, f"headline_{code}", "")
    ]


def release_record(
    article: Article, event: str, *, at: datetime | None = None
) -> list[Release]:
    """Log `event` for each edition of `article` at its present version.

    A story taken away is logged in the editions partners were given; a story
    going out, in those it has now. Recording one version's event twice (a save
    announced with its embargo) keeps one row.
    """
    at = at or timezone.now()
    if event in (Event.UNPUBLISHED, Event.KILLED):
        languages = list(
            Release.objects.filter(article=article)
            .order_by()
            .values_list("language", flat=True)
            .distinct()
        )
        visible_at = at
    else:
        languages = editions(article)
        visible_at = max(
            moment
            for moment in (at, article.published_at, article.embargo_until)
            if moment is not None
        )
    rows = [
        Release(
            article=article,
            language=language,
            event=event,
            version=article.version,
            version_created=article.updated_at,
            visible_at=visible_at,
        )
        for language in languages
    ]
    return Release.objects.bulk_create(rows, ignore_conflicts=True)


def event_for(article: Article, action: str) -> str | None:
    """The release an editorial `action` on `article` (as it now stands) makes,
    or None."""
    if action in _TAKEN_AWAY:
        return _TAKEN_AWAY[action]
    if action in _WHILE_PUBLIC and article.status == Status.PUBLISHED:
        return _WHILE_PUBLIC[action]
    return None


def release_for_change(instance: Article, action: str) -> list[Release]:
    """The releases a committed editorial `action` on a story makes (none when
    partners need not hear of it), read back with their keys."""
    if instance.pk is None:
        return []
    if action not in _WHILE_PUBLIC and action not in _TAKEN_AWAY:
        return []
    # Read afresh: the change has committed, and the caller's copy may be partial.
    article = Article.objects.filter(pk=instance.pk).first()
    if article is None:
        return []
    event = event_for(article, action)
    if event is None:
        return []
    if event in (Event.UPDATED, Event.CORRECTED) and not article.releases.exists():
        # A public story changed before it was ever released (one written before
        # the log existed): partners get it now, as published.
        event = Event.PUBLISHED
    release_record(article, event)
    # Rows made with ignore_conflicts come back without their keys: read them.
    return list(
        Release.objects.filter(
            article=article,
            version=article.version,
            event=event,
            fanned_out_at__isnull=True,
        )
    )


def releases_gone(instance: Article) -> list[Release]:
    """A story partners were given is being deleted: it leaves as a kill in each
    edition they had (unless it was killed already), its releases marked gone, so
    a syncing partner removes its copy rather than keep it for ever."""
    released = Release.objects.filter(article_id=instance.pk)
    languages = set(released.values_list("language", flat=True))
    if not languages:
        return []
    killed = set(
        visible_releases()
        .filter(article_id=instance.pk, event=Event.KILLED)
        .values_list("language", flat=True)
    )
    released.update(gone=True)
    now = timezone.now()
    return [
        Release.objects.create(
            article_id=instance.pk,
            gone=True,
            language=language,
            event=Event.KILLED,
            version=instance.version + 1,
            version_created=now,
            visible_at=now,
        )
        for language in sorted(languages - killed)
    ]


def visible_releases(*, now: datetime | None = None) -> QuerySet:
    """The releases partners see now: settled, and the newest visible one of each
    story and edition, in sync order."""
    cutoff = (now or timezone.now()) - settle()
    visible = Release.objects.filter(visible_at__lte=cutoff)
    newer = visible.filter(
        article_id=OuterRef("article_id"),
        language=OuterRef("language"),
        pk__gt=OuterRef("pk"),
    )
    return visible.exclude(Exists(newer)).order_by("visible_at", "pk")
