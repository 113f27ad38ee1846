"""People named in stories, and protecting an identity without leaving it exposed."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _

from audit.services import audit_record, row_delete
from core import events
from core.permissions import require_permission

from . import permissions as perms
from .audit_actions import IdentityAction as Action
from .gate import IdentityGate, legal_spelling_errors
from .legal import load_held
from .models import Person
from .protection import Exposure, public_exposures
from .refusals import Door, door


class IdentityExposedError(ValidationError):
    """A person cannot become protected while public output already names them.

    `stories` may be withdrawn in the same step; `other_rows` (a section, a source)
    must be renamed first. The message names neither the person nor the name.
    """

    def __init__(self, stories: list[models.Model], other_rows: list[models.Model]):
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


def _stored(person: Person) -> Person | None:
    """The stored row of `person`, holding its stored legal spellings (to compare
    an edit with; never shown)."""
    stored = Person.objects.filter(pk=person.pk).first() if person.pk else None
    return load_held([stored])[0] if stored is not None else None


def _legal_view_needed(person: Person, stored: Person | None) -> bool:
    """Whether saving `person` touches a legal name the user must be entitled to."""
    if stored is None or not stored.identity_protected:
        return False
    if not person.identity_protected:
        return True
    return person.holds_legal_spellings and (
        person.legal_spellings != stored.legal_spellings
    )


def person_check(*, person: Person, withdraw: bool = False) -> list[Exposure]:
    """Refuse a person whose public names leak a protected name, or whose new legal
    spelling public output already shows; return the public stories `withdraw`
    would take off the site."""
    errors = legal_spelling_errors(person)
    if errors:
        raise ValidationError(errors)
    IdentityGate.load(pending=[person]).check([person])
    if not person.holds_legal_spellings:
        return []  # the stored spellings, unchanged
    stored = _stored(person)
    known = set(stored.legal_spellings) if stored else set()
    new_spellings = [s for s in person.legal_spellings if s not in known]
    if not new_spellings:
        return []
    probe = Person(pk=person.pk, name=new_spellings[0], identity_protected=True)
    probe.other_spellings = "\n".join(new_spellings[1:])
    exposures = public_exposures(IdentityGate([probe]))
    stories = [e for e in exposures if e.article is not None]
    others = [leak.obj for e in exposures if e.article is None for leak in e.leaks]
    if others or (stories and not withdraw):
        raise IdentityExposedError(
            [e.article for e in stories], list(dict.fromkeys(others))
        )
    return stories


@events.sends(events.person_changed, events.person_protected)
@door(Door.PERSON_SAVE)
@transaction.atomic
def person_save(
    *, person: Person, by: AbstractBaseUser, withdraw: bool = False
) -> Person:
    """Create or change a person, and protect an identity without leaving it exposed.

    When protection is switched on or a legal spelling added, nothing public may
    still carry the name: stories that do are refused by name, or, with `withdraw`,
    taken off the site in the same transaction, each audited as withdrawn to protect
    an identity: the identity officer's own move, which needs no permission to
    withdraw stories in general.
    """
    adding = person.pk is None
    require_permission(
        by,
        perms.ADD_PERSON if adding else perms.CHANGE_PERSON,
        _("You may not change people."),
    )
    stored = None if adding else _stored(person)
    if _legal_view_needed(person, stored):
        require_permission(
            by,
            perms.VIEW_LEGAL_NAME,
            _("Only identity officers may change or reveal a protected legal name."),
        )
    person.full_clean()
    for story in person_check(person=person, withdraw=withdraw):
        story.withdraw(
            by=by,
            # By the public name: the trail never holds a legal name.
            reason=_("it printed the legal name of %(person)s, now protected")
            % {"person": person.public_name},
        )
    newly_protected = person.identity_protected and not (
        stored and stored.identity_protected
    )
    person.save()
    action = (
        Action.PROTECTED
        if newly_protected
        else (Action.CREATED if adding else Action.CHANGED)
    )
    audit_record(by=by, action=action, obj=person)
    event = events.person_protected if newly_protected else events.person_changed
    events.send_on_commit(event, instance=person, by=by, action=action)
    return person


@events.sends(events.person_changed)
@transaction.atomic
def person_delete(*, person: Person, by: AbstractBaseUser) -> None:
    row_delete(
        person,
        by=by,
        refusal=_("You may not delete people."),
        event=events.person_changed,
    )
