"""The importer finds people through their indexed names, not by loading everyone."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from identity.models import PersonName
from ingest.parse import parse_story
from ingest.recognize import match_people
from tests.factories import PersonFactory, ProtectedPersonFactory

pytestmark = pytest.mark.django_db

STORY = "عنوان الخبر\n\nقال سامي الحداد إن المشروع بدأ، وأكد للحداد الآخر ذلك."


def matched(text: str = STORY) -> list[str]:
    return [m.person.display_name for m in match_people(parse_story(text))]


def test_a_person_is_found_by_a_name_in_the_copy():
    """A public name in the copy matches, whatever else is in the database."""
    PersonFactory(name="سامي الحداد")
    PersonFactory.create_batch(5)
    assert matched() == ["سامي الحداد"]


def test_matching_reads_one_query_however_many_people_there_are():
    """People are looked up by the words of the copy: one query for 3 or 30 people."""
    PersonFactory(name="سامي الحداد")
    PersonFactory.create_batch(30)
    with CaptureQueriesContext(connection) as queries:
        matched()
    assert len(queries) == 1


def test_a_renamed_person_is_found_by_the_new_name_only():
    """Saving a person rebuilds their indexed names."""
    person = PersonFactory(name="سامي الحداد")
    person.name = "كريم النجار"
    person.save()
    assert matched() == []
    assert matched("عنوان\n\nقال كريم النجار كلاماً.") == ["كريم النجار"]


def test_a_protected_legal_name_is_not_indexed():
    """Only public names are indexed: the legal name is the identity gate's to find."""
    person = ProtectedPersonFactory()
    indexed = set(
        PersonName.objects.filter(person=person).values_list("words", flat=True)
    )
    assert not any(person.name.split()[0] in words for words in indexed)
