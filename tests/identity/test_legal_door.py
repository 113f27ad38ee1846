"""A protected person's legal spellings are kept apart and read through one door.

Code that never asked for a legal name cannot hold it: a person read from the
database holds none, no query of people selects one, and only `identity.legal`
reads the table they are kept in (for an identity officer, recorded; or for the
gate, which looks for the names and never shows them)."""

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.models import AuditEvent
from core.roles import IDENTITY_OFFICERS, REPORTERS
from identity.audit_actions import IdentityAction
from identity.cache import current_gate
from identity.gate import IdentityGate
from identity.legal import legal_spellings_for, people_spelled
from identity.models import LegalNameNotHeld, Person
from identity.services import person_save
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    ProtectedPersonFactory,
    member_of,
)

pytestmark = pytest.mark.django_db

LEGAL = "يوسف المنصوري"
LATIN = "Yousef al-Mansouri"
TABLE = "identity_legalspelling"


@pytest.fixture
def protected():
    return ProtectedPersonFactory(name=LEGAL, other_spellings=LATIN)


def test_a_protected_persons_row_keeps_no_legal_name(protected):
    assert (
        Person.objects.filter(pk=protected.pk).values_list("name", flat=True)[0] == ""
    )


def test_a_person_read_from_the_database_holds_no_legal_spelling(protected):
    person = Person.objects.get(pk=protected.pk)
    with pytest.raises(LegalNameNotHeld):
        _spellings = person.legal_spellings
    assert LEGAL not in str(person.__dict__)


def test_the_database_refuses_a_legal_name_on_a_protected_persons_row(protected):
    with pytest.raises(IntegrityError), transaction.atomic():
        Person.objects.filter(pk=protected.pk).update(name=LEGAL)


def test_an_identity_officer_reads_the_legal_spellings_and_the_read_is_recorded(
    protected,
):
    officer = member_of(IDENTITY_OFFICERS)
    person = Person.objects.get(pk=protected.pk)
    assert legal_spellings_for(person, by=officer) == [LEGAL, LATIN]
    event = AuditEvent.objects.get(action=IdentityAction.LEGAL_NAME_VIEWED)
    assert (event.actor, event.object_id) == (officer, str(person.pk))
    assert LEGAL not in event.object_repr


def test_a_user_without_the_permission_cannot_read_the_legal_spellings(protected):
    reporter = member_of(REPORTERS)
    with pytest.raises(PermissionDenied):
        legal_spellings_for(Person.objects.get(pk=protected.pk), by=reporter)
    assert not AuditEvent.objects.filter(action=IdentityAction.LEGAL_NAME_VIEWED)


def test_an_officers_search_finds_people_by_a_folded_legal_spelling(protected):
    officer = member_of(IDENTITY_OFFICERS)
    assert list(people_spelled("المنصوري", by=officer)) == [protected]
    assert list(people_spelled("MANSOURI", by=officer)) == [protected]


def test_nobody_else_may_search_legal_spellings(protected):
    with pytest.raises(PermissionDenied):
        people_spelled("المنصوري", by=member_of(REPORTERS))


def test_the_gate_looks_for_every_stored_spelling(protected):
    gate = IdentityGate.load()
    assert [p.pk for p in gate.people_in(f"قال {LATIN} أمس")] == [protected.pk]


def test_unprotecting_puts_the_name_back_on_the_row_and_keeps_none_apart(protected):
    officer = member_of(IDENTITY_OFFICERS)
    person = Person.objects.get(pk=protected.pk)
    legal_spellings_for(person, by=officer)
    person.identity_protected = False
    person_save(person=person, by=officer)
    person = Person.objects.get(pk=protected.pk)
    assert person.name == LEGAL
    assert not IdentityGate.load()


def test_an_edit_by_someone_who_may_not_see_them_keeps_the_stored_spellings(
    protected,
):
    reporter = member_of(REPORTERS)
    person = Person.objects.get(pk=protected.pk)
    person.description_ar = "شاهد على الحادثة"
    person_save(person=person, by=reporter)
    assert [p.pk for p in IdentityGate.load().people_in(LEGAL)] == [protected.pk]
    officer = member_of(IDENTITY_OFFICERS)
    assert legal_spellings_for(Person.objects.get(pk=protected.pk), by=officer) == [
        LEGAL,
        LATIN,
    ]


def test_no_page_or_list_of_people_selects_a_legal_spelling(client, protected):
    """The reader's pages and feeds, and the admin's people as a reporter sees
    them, read people without ever reading the table of legal spellings."""
    story = ArticleFactory()
    ArticlePersonFactory(article=story, person=protected)
    reporter = member_of(REPORTERS)
    current_gate()  # the gate's own loading, as a worker loaded it long before
    addresses = [
        story.get_absolute_url(),
        protected.get_absolute_url(),
        reverse("articles:person-feed", args=[protected.pk, protected.slug]),
        reverse("articles:feed"),
        "/sitemap.xml",
    ]
    with CaptureQueriesContext(connection) as public:
        for address in addresses:
            assert client.get(address, follow=True).status_code == 200, address
    client.force_login(reporter)
    with CaptureQueriesContext(connection) as desk:
        for address in (
            reverse("admin:identity_person_changelist"),
            reverse("admin:identity_person_change", args=[protected.pk]),
            reverse("admin:identity_person_changelist") + "?q=المنصوري",
        ):
            assert client.get(address).status_code == 200, address
    read = [q["sql"] for q in public.captured_queries + desk.captured_queries]
    assert read and not [sql for sql in read if TABLE in sql]


def test_only_the_legal_module_names_the_table_of_legal_spellings():
    """Every module of ours but the model's own and identity.legal (migrations
    aside) goes through identity.legal, so the door cannot be walked round."""
    allowed = {Path("identity/models.py"), Path("identity/legal.py")}
    offenders = []
    root = Path(settings.BASE_DIR)
    for path in root.glob("*/**/*.py"):
        relative = path.relative_to(root)
        if relative.parts[0] in {".venv", "tests", "scripts"} or (
            "migrations" in relative.parts
        ):
            continue
        if relative in allowed:
            continue
        names = {
            node.id if isinstance(node, ast.Name) else node.attr
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Name | ast.Attribute)
        } | {
            alias.name
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        if "LegalSpelling" in names or TABLE in path.read_text(encoding="utf-8"):
            offenders.append(str(relative))
    assert offenders == []


def test_a_reporter_cannot_post_legal_spellings_the_form_does_not_show(
    client, protected
):
    """The officer's fields are not on a reporter's form, so posting them anyway
    (a hand-made request) changes nothing the gate looks for."""
    client.force_login(member_of(REPORTERS))
    client.post(
        reverse("admin:identity_person_change", args=[protected.pk]),
        {
            "public_name": protected.public_name,
            "aliases": protected.aliases,
            "description_ar": "",
            "description_en": "",
            "name": "اسم آخر تماما",
            "other_spellings": "Someone Else Entirely",
        },
    )
    officer = member_of(IDENTITY_OFFICERS)
    stored = legal_spellings_for(Person.objects.get(pk=protected.pk), by=officer)
    assert stored == [LEGAL, LATIN]
