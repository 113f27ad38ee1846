"""The desk's dashboard on the admin home: for the signed-in user, the stories
waiting for them, each list short and read in one query.

A list is shown only to those who can act on it (the permission beside it): a
source manager has no drafts or reviews to see, a reporter no review queue. The
admin site (`newsroom.admin`) puts the lists above the app list; the template only
shows them.
"""

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from . import permissions as perms
from .models import Article, Correction, Status

# Rows per list: the dashboard points at the work; the lists behind "All …" hold
# the rest.
ROWS = 6

# What a row shows of a story (its headline, in any language, and its times).
_ROW_FIELDS = (
    "headline",
    *[f"headline_{code}" for code, _name in settings.LANGUAGES],
    "status",
    "published_at",
    "embargo_until",
    "updated_at",
)


@dataclass(frozen=True)
class Row:
    """One story in a list: what to call it, a note, and its times with labels."""

    article: Article
    times: tuple[tuple[Promise, datetime], ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Shelf:
    """One list of the dashboard."""

    key: str
    title: Promise
    empty: Promise
    rows: list[Row]
    more: list[tuple[Promise, str]] = field(default_factory=list)


def _list_url(**query: str) -> str:
    return f"{reverse('admin:articles_article_changelist')}?{urlencode(query)}"


def _stories():
    return Article.objects.only(*_ROW_FIELDS)


def _my_drafts(user) -> Shelf:
    stories = _stories().drafts_of(user).order_by("-updated_at", "-pk")[:ROWS]
    return Shelf(
        "drafts",
        _("My drafts"),
        _("No drafts of yours."),
        [Row(story, ((_("last saved"), story.updated_at),)) for story in stories],
        [(_("All my drafts"), _list_url(state="mine"))],
    )


def _writer(story: Article) -> str:
    writer = story.created_by
    return (writer.get_full_name() or writer.get_username()) if writer else ""


def _waiting_for_review() -> Shelf:
    # Longest waiting first: the queue is worked from its oldest end.
    stories = (
        _stories()
        .filter(status=Status.IN_REVIEW)
        .select_related("created_by")
        .only(
            *_ROW_FIELDS,
            "created_by__username",
            "created_by__first_name",
            "created_by__last_name",
        )
        .order_by("updated_at", "pk")[:ROWS]
    )
    rows = [
        Row(
            story,
            ((_("last saved"), story.updated_at),),
            _writer(story),
        )
        for story in stories
    ]
    return Shelf(
        "review",
        _("Waiting for review"),
        _("Nothing is waiting for review."),
        rows,
        [(_("All in review"), _list_url(state=Status.IN_REVIEW))],
    )


def _scheduled_and_embargoed(now: datetime) -> Shelf:
    # Two short reads, each from its own order, merged: the soonest of either kind.
    scheduled = list(_stories().scheduled(at=now).order_by("published_at")[:ROWS])
    embargoed = list(_stories().embargoed(at=now).order_by("embargo_until")[:ROWS])
    stories = {story.pk: story for story in [*scheduled, *embargoed]}.values()
    rows = []
    for story in stories:
        times = []
        if story.status == Status.PUBLISHED and story.published_at > now:
            times.append((_("goes live"), story.published_at))
        if story.embargo_until is not None and story.embargo_until > now:
            times.append((_("embargo lifts"), story.embargo_until))
        rows.append(Row(story, tuple(times)))
    rows.sort(key=lambda row: min(when for _label, when in row.times))
    return Shelf(
        "scheduled",
        _("Scheduled and embargoed"),
        _("Nothing is scheduled or embargoed."),
        rows[:ROWS],
        [
            (_("All scheduled"), _list_url(state="scheduled")),
            (_("All embargoed"), _list_url(state="embargoed")),
        ],
    )


def _recently_published(now: datetime) -> Shelf:
    stories = _stories().published(at=now).latest_first()[:ROWS]
    return Shelf(
        "published",
        _("Recently published"),
        _("Nothing published yet."),
        [Row(story, ((_("published"), story.published_at),)) for story in stories],
        [(_("All published"), _list_url(state="published"))],
    )


def _recent_corrections() -> Shelf:
    corrections = (
        Correction.objects.select_related("article")
        .only(
            "kind",
            "created_at",
            "article",
            *[f"article__{name}" for name in _ROW_FIELDS],
        )
        .order_by("-created_at", "-pk")[:ROWS]
    )
    rows = [
        Row(
            correction.article,
            ((_("added"), correction.created_at),),
            str(correction.get_kind_display()),
        )
        for correction in corrections
    ]
    return Shelf(
        "corrections",
        _("Recent corrections"),
        _("No corrections yet."),
        rows,
    )


def desk_dashboard(user: AbstractBaseUser) -> list[Shelf]:
    """The lists `user` can act on, newest work first; one query each."""
    now = timezone.now()
    shelves = []
    if user.has_perm(perms.CHANGE_ARTICLE):
        shelves.append(_my_drafts(user))
    if user.has_perm(perms.REVIEW_ARTICLE):
        shelves.append(_waiting_for_review())
    if user.has_perm(perms.PUBLISH_ARTICLE):
        shelves.append(_scheduled_and_embargoed(now))
    if user.has_perm(perms.CHANGE_ARTICLE):
        shelves.append(_recently_published(now))
    if user.has_perm(perms.VIEW_CORRECTION):
        shelves.append(_recent_corrections())
    return shelves
