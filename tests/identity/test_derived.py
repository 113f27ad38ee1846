"""The gate reads a row as it will be saved: what saving derives from it (a slug
made from a name, a body sanitized) cannot carry a protected name past the door.

Generated over every character outside ASCII that the slug drops (symbols,
punctuation, modifiers, format characters): put inside the name it would pass a
reading of the name as typed, and leave the name in the address."""

import sys
from functools import cache

import pytest
from taggit.models import Tag

from arabic.slugs import unicode_slug
from articles.models import Section
from identity.gate import IdentityGate, IdentityLeakError
from identity.models import Person
from sources.models import Source
from tests.factories import ArticleFactory

pytestmark = pytest.mark.django_db

LATIN = "Mazen al-Khatib"


@pytest.fixture(scope="module")
def gate() -> IdentityGate:
    person = Person(
        pk=1,
        name="مازن الخطيب",
        other_spellings=LATIN,
        public_name="الراوي",
        identity_protected=True,
    )
    return IdentityGate([person])


@cache
def dropped_by_the_slug() -> list[str]:
    """Characters outside ASCII that the slug of "Ma?zen al-Khatib" drops."""
    wanted = unicode_slug(LATIN)
    return [
        char
        for char in map(chr, range(0x80, sys.maxunicode + 1))
        if char.isprintable() and unicode_slug(f"Ma{char}zen al-Khatib") == wanted
    ]


def refused(gate: IdentityGate, row) -> bool:
    try:
        gate.check([row])
    except IdentityLeakError:
        return True
    return False


@pytest.mark.parametrize(
    "row",
    [
        lambda name: Section(name_ar="قسم", name_en=name),
        lambda name: Source(name_ar="صحيفة", name_en=name),
        lambda name: Tag(name=name),
    ],
    ids=["section", "source", "tag"],
)
def test_a_name_whose_address_would_spell_a_protected_name_is_refused(gate, row):
    generated = dropped_by_the_slug()
    missed = [c for c in generated if not refused(gate, row(f"Ma{c}zen al-Khatib"))]
    assert len(generated) > 100
    assert not missed, [ascii(c) for c in missed[:10]]


def test_a_body_is_read_as_the_sanitizer_leaves_it(gate):
    story = ArticleFactory.build(
        body_ar="<p>قال مازن <script>ثم قال آخرون</script>الخطيب</p>"
    )
    assert refused(gate, story)
