"""The identity gate finds a protected legal name in every shape it hides in."""

import pytest

from identity.gate import IdentityGate, spelling_problem
from identity.models import Person
from identity.text import skeleton

ARABIC = "مازن الخطيب"
LATIN = "Mazen al-Khatib"


@pytest.fixture
def gate() -> IdentityGate:
    person = Person(
        pk=1,
        name=ARABIC,
        other_spellings=LATIN,
        public_name="الراوي",
        identity_protected=True,
    )
    return IdentityGate([person])


@pytest.mark.parametrize(
    "text",
    [
        "قال مازن الخطيب إن الملفات نقلت",
        "قال مازِن الخَطيب",  # tashkeel
        "قال مازن الخـــطيب",  # tatweel
        "ومازن الخطيب",  # و
        "بمازن الخطيب",  # ب
        "لمازن الخطيب",  # ل
        "فمازن الخطيب",  # ف
        "كمازن الخطيب",  # ك
        "مازن\u00adالخطيب",  # soft hyphen
        "ماز\u200dن الخطيب",  # zero-width joiner
        "\u202bمازن الخطيب\u202c",  # bidi embedding
        "مازن&nbsp;الخطيب",  # entity
        "&#1605;&#1575;&#1586;&#1606; الخطيب",  # numeric entities
        "مازن-الخطيب",  # slug
    ],
)
def test_arabic_spelling_is_found_in_its_disguises(gate, text):
    """Marks, clitics, invisible characters and entities do not hide the name."""
    assert gate.people_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "Mazen al-Khatib said",
        "MAZEN AL KHATIB",
        "mazen-alkhatib",
        "Mazen_Al_Khatib",
        "mazen.al.khatib",
        "#MazenAlKhatib",
        "@MazenAlKhatib",
        "https://x.com/MazenAlKhatib/status/1",
        "uploads/mazen-al-khatib-home.jpg",
        "Mazén al-Khatïb",  # accents
        "M\u0430zen al-Kh\u0430tib",  # Cyrillic а
        "Mazen al\u2011Khatib",  # non-breaking hyphen
    ],
)
def test_latin_spelling_is_found_in_its_disguises(gate, text):
    """Case, separators, run-together forms, accents and look-alikes do not hide it."""
    assert gate.people_in(text)


def test_a_name_split_by_markup_is_found_as_the_reader_sees_it(gate):
    """Body HTML is read as text: tags between the words do not hide the name."""
    assert gate.people_in("<p><b>مازن</b> الخطيب</p>", is_html=True)


def test_article_with_lam_prefix_is_found():
    """ل + ال is written لل: "للخطيب" still holds "الخطيب"."""
    person = Person(pk=2, name="الخطيب مازن", identity_protected=True)
    assert IdentityGate([person]).people_in("قال للخطيب مازن")


@pytest.mark.parametrize(
    "text", ["قال الراوي إن الملفات نقلت", "مازن وحده", "الخطيب", "Mazen"]
)
def test_other_text_passes(gate, text):
    """The pseudonym, or a single part of the name, is not the legal name."""
    assert not gate.people_in(text)


def test_an_unprotected_person_is_never_looked_for():
    """Only protected people have legal spellings to keep out."""
    person = Person(pk=3, name=ARABIC, identity_protected=False)
    assert not IdentityGate([person])
    assert not IdentityGate([person]).people_in(ARABIC)


def test_skeleton_folds_both_scripts_alike():
    """Text and spelling fold to the same key through one function."""
    assert skeleton("Mazen al-Khatib") == skeleton("MAZEN_AL_KHATIB")
    assert skeleton("Mazen al-Khatib") == skeleton("mazenalkhatib")
    assert skeleton("مازِن الخطيب") == skeleton("مازن-الخطيب")


def test_a_too_short_spelling_is_refused():
    """A spelling of three letters would be found inside ordinary words."""
    assert spelling_problem("Ali")
    assert spelling_problem(ARABIC) is None


def test_leaks_name_the_row_and_the_field(gate):
    """A leak says which field of which row holds the name."""
    person = Person(name="someone", public_name="x", description_en=f"born {LATIN}")
    (leak,) = gate.leaks([person])
    assert leak.obj is person
    assert leak.field == "description_en"
