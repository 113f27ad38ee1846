"""The one door to the legal spellings of protected people.

A person read from the database holds no legal spelling (identity.models): whoever
needs one asks here. People ask with `legal_spellings_for`, which needs
`view_legal_name` and records in the audit trail who read whose; the officers'
search asks with `people_spelled`, under the same permission. The identity gate
asks with `load_held`, the one machine read: it looks for the names, it never shows
them. A test (tests/identity/test_legal_door.py) holds every other module to this.
"""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from arabic import search_fold
from audit.services import audit_record

from .audit_actions import IdentityAction
from .models import LegalSpelling, Person
from .permissions import VIEW_LEGAL_NAME


def _require_officer(by: AbstractBaseUser) -> None:
    if not by.has_perm(VIEW_LEGAL_NAME):
        raise PermissionDenied(_("Only identity officers may read legal names."))


def _stored(person_ids: Iterable[int]) -> dict[int, list[str]]:
    spellings: dict[int, list[str]] = {}
    rows = LegalSpelling.objects.filter(person_id__in=list(person_ids)).values_list(
        "person_id", "spelling"
    )
    for person_id, spelling in rows.order_by("person_id", "position"):
        spellings.setdefault(person_id, []).append(spelling)
    return spellings


def legal_spellings_for(person: Person, *, by: AbstractBaseUser) -> list[str]:
    """The legal spellings of `person` (the legal name first), read by `by`, an
    identity officer; the read is recorded. The person then holds them."""
    _require_officer(by)
    if not person.identity_protected or person.pk is None:
        return person.legal_spellings
    spellings = _stored([person.pk]).get(person.pk, [])
    person.hold_legal_spellings(spellings)
    audit_record(
        by=by,
        action=IdentityAction.LEGAL_NAME_VIEWED,
        obj=person,
    )
    return spellings


def people_spelled(query: str, *, by: AbstractBaseUser) -> QuerySet[Person]:
    """The people one of whose legal spellings holds `query` (folded), for `by`,
    an identity officer."""
    _require_officer(by)
    folded = search_fold(query)
    ids = LegalSpelling.objects.filter(folded__contains=folded).values("person_id")
    return Person.objects.filter(pk__in=ids)


def load_held(people: Iterable[Person]) -> list[Person]:
    """`people`, each protected one holding its stored legal spellings: the gate's
    loader, and the services' comparison of an edit with what is stored. Never for
    showing a name (that is `legal_spellings_for`)."""
    people = list(people)
    wanted = [p.pk for p in people if p.identity_protected and p.pk is not None]
    stored = _stored(wanted) if wanted else {}
    for person in people:
        if person.pk in stored:
            person.hold_legal_spellings(stored[person.pk])
    return people


def protected_people(*, exclude: Iterable[int] = ()) -> list[Person]:
    """Every protected person, holding their legal spellings (for the gate)."""
    stored = Person.objects.filter(identity_protected=True).exclude(
        pk__in=list(exclude)
    )
    return load_held(stored)
