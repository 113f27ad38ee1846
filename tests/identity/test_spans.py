"""The span finder locates, in the raw text, every legal spelling the matcher finds,
with the same folding."""

import pytest

from identity.gate import IdentityGate
from identity.models import Person

ARABIC = "نزار الحلبوني"
LATIN = "Nizar al-Halbouni"


@pytest.fixture(scope="module")
def gate() -> IdentityGate:
    person = Person(
        pk=1,
        name=ARABIC,
        other_spellings=LATIN,
        public_name="الشاهد",
        identity_protected=True,
    )
    return IdentityGate([person])


def found(gate: IdentityGate, text: str) -> list[str]:
    return [text[start:end] for start, end, _person in gate.spans_in(text)]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (f"قال {ARABIC} أمس", [ARABIC]),
        (f"Yesterday {LATIN} said", [LATIN]),
        (
            "NIZAR AL-HALBOUNI and nizar al halbouni",
            ["NIZAR AL-HALBOUNI", "nizar al halbouni"],
        ),
        # Hamza, tashkeel and tatweel variants, the tashkeel after the last letter kept.
        ("قال نِزَارْ الحلـبونيُّ أمس", ["نِزَارْ الحلـبونيُّ"]),
        ("قال نزار إلحلبوني", ["نزار إلحلبوني"]),
        # Glued into a slug; behind a proclitic, the words' whole tokens.
        ("/story/nizar-al-halbouni-speaks/", ["nizar-al-halbouni"]),
        ("ولنزار الحلبوني", ["ولنزار الحلبوني"]),
        # The words in the other order, or apart.
        ("قال الحلبوني، نزار إن", ["الحلبوني، نزار"]),
        ("نزار بن خالد الحلبوني", ["نزار بن خالد الحلبوني"]),
        (f'<input value="{ARABIC}"><p>{LATIN}</p>', [ARABIC, LATIN]),
        ("نزار والحلبوني", []),
        ("نزار قباني", []),
        ("", []),
    ],
)
def test_spans_are_the_raw_text_of_each_spelling(gate, text, names):
    assert found(gate, text) == names


def test_each_span_names_the_person(gate):
    ((start, end, person),) = gate.spans_in(f"- {ARABIC} -")
    assert (start, end) == (2, 2 + len(ARABIC))
    assert person.public_name == "الشاهد"


def test_spans_agree_with_the_matcher(gate):
    texts = [f"قال {ARABIC}", f"x {LATIN.upper()} y", "ordinary copy", "نزار وحده"]
    for text in texts:
        assert bool(gate.spans_in(text)) == bool(gate.people_in(text))


def test_spans_only_for_the_people_asked(gate):
    assert gate.spans_in(ARABIC, people=[]) == []
    assert gate.spans_in(ARABIC, people=gate.people)
