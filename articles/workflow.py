"""The desk's workflow: the states a story moves through and who may move it.

    draft → in review → approved → published      (published in the future: scheduled)
    in review / approved → draft                  (sent back)
    published → draft                             (withdrawn)
    any → killed                                  (legal or ethical removal; final)

Editors may publish a draft straight away (breaking news); reporters write and
submit their own drafts. This module only answers questions; the services in
`articles.services` make the moves.
"""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from . import permissions as perms
from .models import Article, Status


@dataclass(frozen=True)
class Transition:
    """One move of the workflow: from which states, to which, and who may make it.

    `towards_public` moves pass the identity gate; moves that take a story away
    from readers (send back, withdraw, kill) are never blocked by it.
    """

    name: str
    label: Promise
    sources: frozenset[str]
    target: str
    # The permission the move needs, or a tuple of permissions any one of which does.
    permission: str | tuple[str, ...]
    towards_public: bool


TRANSITIONS = {
    t.name: t
    for t in [
        Transition(
            "submit",
            _("Submit for review"),
            frozenset({Status.DRAFT}),
            Status.IN_REVIEW,
            perms.CHANGE_ARTICLE,
            True,
        ),
        Transition(
            "approve",
            _("Approve"),
            frozenset({Status.IN_REVIEW}),
            Status.APPROVED,
            perms.REVIEW_ARTICLE,
            True,
        ),
        Transition(
            "send_back",
            _("Send back to draft"),
            frozenset({Status.IN_REVIEW, Status.APPROVED}),
            Status.DRAFT,
            perms.REVIEW_ARTICLE,
            False,
        ),
        Transition(
            "publish",
            _("Publish"),
            frozenset(
                {Status.DRAFT, Status.IN_REVIEW, Status.APPROVED, Status.PUBLISHED}
            ),
            Status.PUBLISHED,
            perms.PUBLISH_ARTICLE,
            True,
        ),
        Transition(
            "withdraw",
            _("Withdraw from the site"),
            frozenset({Status.PUBLISHED}),
            Status.DRAFT,
            perms.UNPUBLISH_ARTICLE,
            False,
        ),
        Transition(
            "kill",
            _("Kill"),
            frozenset(
                {Status.DRAFT, Status.IN_REVIEW, Status.APPROVED, Status.PUBLISHED}
            ),
            Status.KILLED,
            perms.KILL_ARTICLE,
            False,
        ),
    ]
}


# Not a button of the workflow: protecting a person (services.person_save) takes the
# public stories that print their legal name off the site. Identity officers make
# it as part of protecting someone, without the general withdrawal permission.
WITHDRAW_TO_PROTECT = Transition(
    "withdraw_to_protect",
    _("Withdraw to protect an identity"),
    frozenset({Status.PUBLISHED}),
    Status.DRAFT,
    (perms.VIEW_LEGAL_NAME, perms.UNPUBLISH_ARTICLE),
    False,
)


def holds_permission(user, transition: Transition) -> bool:
    """Whether `user` holds the permission `transition` needs (one of them, if it
    names several)."""
    wanted = transition.permission
    if isinstance(wanted, str):
        wanted = (wanted,)
    return any(user.has_perm(permission) for permission in wanted)


def may_edit(article: Article, user) -> bool:
    """Editors edit any story; others only their own drafts (and new ones)."""
    if not user.has_perm(perms.CHANGE_ARTICLE):
        return False
    if user.has_perm(perms.EDIT_ANY_ARTICLE) or article.pk is None:
        return True
    return article.created_by_id == user.pk and article.status == Status.DRAFT


def may_make(transition: Transition, article: Article, user) -> bool:
    """Whether `user` may make `transition` on `article` in its present state."""
    if article.status not in transition.sources or not holds_permission(
        user, transition
    ):
        return False
    return transition.name != "submit" or may_edit(article, user)


def transitions_for(article: Article, user) -> list[Transition]:
    """The moves `user` may make on `article` now, in workflow order."""
    return [t for t in TRANSITIONS.values() if may_make(t, article, user)]


@dataclass(frozen=True)
class State:
    """How a story stands, as the desk says it: a key for styling and a label."""

    key: str
    label: Promise


def state_of(article: Article) -> State:
    """Killed, embargoed, scheduled, published, approved, in review or draft."""
    if article.status == Status.KILLED:
        return State("killed", _("Killed"))
    if article.is_embargoed:
        return State("embargoed", _("Embargoed"))
    if article.is_scheduled:
        return State("scheduled", _("Scheduled"))
    return State(article.status, Status(article.status).label)
