"""Every disguise the data defines is caught, and innocent copy is not refused.

The disguises come from tests/identity/disguises.py, which reads them out of
Unicode's data and out of how names are built, not out of a list of examples.
Each is looked for the way the gate reads a field and the way the output check
reads a whole page; a sample goes through the story service, the one door.
"""

import html
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from articles.models import Article
from articles.services import StoryEdit, article_save
from core.roles import EDITORS
from identity.gate import IdentityGate, IdentityLeakError
from identity.models import Person
from tests.factories import ProtectedPersonFactory, member_of

from .disguises import (
    FAMILIES,
    confusable,
    dotted_letters,
    dotted_skeletons,
    lineage,
    look_alikes,
    qualified_letters,
    word_breaks,
)

# Fictional people: a legal name in Arabic and its press spelling in Latin.
PEOPLE = [
    ("نزار الحلبوني", "Nizar al-Halbouni"),
    ("مازن الخطيب", "Mazen al-Khatib"),
    ("سلمى القاسمي", "Salma al-Qasimi"),
    ("كمال الشهابي", "Kamal Shehabi"),
]
SPELLINGS = [spelling for person in PEOPLE for spelling in person]
# Given names of other people, for lineage chains and innocent copy.
OTHER_NAMES = ["خالد", "محمد", "علي", "حسن", "يوسف", "عمر", "Khalid", "Omar", "Ali"]


@pytest.fixture(scope="module")
def gate() -> IdentityGate:
    return IdentityGate(
        Person(
            pk=number,
            name=name,
            other_spellings=latin,
            public_name=f"الشاهد {number}",
            identity_protected=True,
        )
        for number, (name, latin) in enumerate(PEOPLE, start=1)
    )


def owner(spelling: str) -> int:
    return next(n for n, person in enumerate(PEOPLE, 1) if spelling in person)


def caught(gate: IdentityGate, spelling: str, text: str) -> bool:
    """Whether the field check and the page check both find the spelling's owner."""
    page = f"<html><body><p>خبر اليوم: {html.escape(text)}</p></body></html>"
    return all(
        owner(spelling) in {person.pk for person in found}
        for found in (gate.people_in(text), gate.people_in_output(page))
    )


def single_substitutions(spelling: str):
    """Every spelling with one letter, or one pair of letters, replaced by each
    member of its UTS #39 group."""
    for position, letter in enumerate(spelling):
        for glyph in look_alikes(letter):
            yield spelling[:position] + glyph + spelling[position + 1 :]
    for position in range(len(spelling) - 1):
        for glyph in look_alikes(spelling[position : position + 2]):
            yield spelling[:position] + glyph + spelling[position + 2 :]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_confusable_of_every_letter_is_caught(gate, spelling):
    """Exhaustively: each letter replaced by each of its look-alikes in the data."""
    generated = list(single_substitutions(spelling))
    missed = [text for text in generated if not caught(gate, spelling, text)]
    assert not missed, f"{len(missed)} of {len(generated)}: {missed[:10]}"


@pytest.mark.parametrize("spelling", [s for s in SPELLINGS if not s.isascii()])
def test_every_dotted_letter_written_as_its_skeleton_and_dots_is_caught(gate, spelling):
    """Exhaustively: each dotted letter as its skeleton with each mark Unicode
    names as its dots (COMBINING DOT ABOVE, SOGDIAN COMBINING DOT BELOW…)."""
    generated = list(dotted_skeletons(spelling))
    missed = [text for text in generated if not caught(gate, spelling, text)]
    assert len(generated) > 10
    assert not missed, f"{len(missed)} of {len(generated)}: {missed[:10]}"


def holding(pairs) -> list[str]:
    """The spellings holding a letter of one of the (letter, disguise) pairs."""
    return [s for s in SPELLINGS if any(letter in s for letter, _ in pairs)]


@pytest.mark.parametrize("spelling", holding(dotted_letters()))
def test_every_letter_unicode_names_as_a_skeleton_with_its_dots_is_caught(
    gate, spelling
):
    """ڗ (REH WITH TWO DOTS ABOVE) for ز, ݗ for خ: one letter at a time."""
    generated = [
        spelling.replace(letter, other, 1)
        for letter, other in dotted_letters()
        if letter in spelling
    ]
    missed = [text for text in generated if not caught(gate, spelling, text)]
    assert generated
    assert not missed, [ascii(text) for text in missed]


@pytest.mark.parametrize("spelling", holding(qualified_letters()))
def test_every_letter_unicode_names_as_a_qualified_letter_is_caught(gate, spelling):
    """ؠ (KASHMIRI YEH) for ي, ࢭ (LOW ALEF) for ا, ࢽ (AFRICAN NOON) for ن."""
    generated = [
        spelling.replace(letter, other)
        for letter, other in qualified_letters()
        if letter in spelling
    ]
    missed = [text for text in generated if not caught(gate, spelling, text)]
    assert generated
    assert not missed, [ascii(text) for text in missed]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_any_punctuation_or_space_between_the_words_parts_them(gate, spelling):
    """Every dash, dot, bullet or space of Unicode's P and Z categories, with an
    ancestor between the words so that run together they are not the name."""
    given, _, family = spelling.partition(" ")
    father = "خالد" if not spelling.isascii() else "Khalid"
    generated = [f"{given}{c}{father}{c}{family}" for c in word_breaks()]
    missed = [text for text in generated if not caught(gate, spelling, text)]
    assert len(generated) > 500
    assert not missed, f"{len(missed)} of {len(generated)}: {missed[:5]}"


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("spelling", SPELLINGS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_generated_disguise_is_caught(gate, spelling, family, data):
    """Many letters disguised at once, by one family of the data."""
    text = data.draw(FAMILIES[family](spelling), label="disguise")
    assert caught(gate, spelling, text), ascii(text)


@pytest.mark.parametrize("spelling", SPELLINGS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_lineage_chain_of_any_length_is_caught(gate, spelling, data):
    """بن / bin chains between the given name and the family name."""
    text = data.draw(lineage(spelling, OTHER_NAMES), label="chain")
    assert caught(gate, spelling, text), text


@pytest.mark.parametrize("spelling", SPELLINGS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_disguise_split_between_caption_and_credit_is_caught(gate, spelling, data):
    """A picture's caption ends with the given name, its credit starts with the
    family name: read together, as they are printed."""
    text = data.draw(confusable(spelling), label="disguise")
    given_name, _, family_name = text.partition(" ")
    page = (
        f'<figure><img alt="صورة"><figcaption>لقاء مع {html.escape(given_name)}'
        f"</figcaption><small>{html.escape(family_name)}</small></figure>"
    )
    assert owner(spelling) in {p.pk for p in gate.people_in_output(page)}, page


# ------------------------------------------------------------ through the door


_EDITORS = itertools.count()


@pytest.mark.django_db
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_story_service_refuses_every_generated_disguise(data):
    """A member of the Editors group saving a story with a disguise is refused,
    and nothing is written."""
    # A new editor each time: repeated refusals pause one editor's saves.
    editor = member_of(EDITORS, username=f"editor-{next(_EDITORS)}")
    name, latin = PEOPLE[0]
    if not Person.objects.exists():
        ProtectedPersonFactory(name=name, other_spellings=latin)
    family = data.draw(st.sampled_from(sorted(FAMILIES)), label="family")
    spelling = data.draw(st.sampled_from([name, latin]), label="spelling")
    text = data.draw(FAMILIES[family](spelling), label="disguise")
    edit = StoryEdit(article=Article(language="ar", headline_ar=f"لقاء مع {text}"))
    with pytest.raises(IdentityLeakError):
        article_save(edit=edit, by=editor)
    assert not Article.objects.exists()


# ------------------------------------------------------------ innocent copy

# Ordinary words of a news story, written for this test.
WORDS = " ".join(
    [
        "قال وزير الاقتصاد إن المدينة تستعد لموسم جديد من المعارض بعد أن افتتحت "
        "البلدية حديقة كبيرة قرب الميناء وشارك في الحفل عدد من السكان والزوار "
        "وأكد المتحدث أن الفريق لعب مباراة قوية أمام جمهوره وسجل هدفين في الشوط الثاني "
        "مرر الكرة إلى زميله في الدقيقة الأخيرة",
    ]
).split()
FAMILY_NAMES = ["العلي", "المنصوري", "الكعبي", "الظاهري", "قباني", "الأحمد"]


def innocent_sentences(count: int, seed: int = 2026):
    """Sentences of ordinary words and other people's names, in which a protected
    person's given name and family name may each stand, but never both of one
    person: another's family name follows a given name, or the two parts of one
    name stand in different sentences."""
    rng = random.Random(seed)
    given_names = [name.split()[0] for name, _ in PEOPLE]
    family_names = [name.split()[-1] for name, _ in PEOPLE]
    for _ in range(count):
        words = rng.choices(WORDS, k=rng.randint(6, 14))
        person = rng.randrange(len(PEOPLE))
        others = [n for n in range(len(PEOPLE)) if n != person]
        inserts = [
            rng.choice([given_names[person], rng.choice(OTHER_NAMES)]),
            rng.choice([family_names[rng.choice(others)], rng.choice(FAMILY_NAMES)]),
        ]
        for word in inserts:
            words.insert(rng.randrange(len(words) + 1), word)
        yield " ".join(words)


def test_innocent_copy_is_rarely_refused(gate):
    """At most 40 in 10,000 sentences naming no protected person are refused."""
    sentences = list(innocent_sentences(10_000))
    refused = [text for text in sentences if gate.people_in(text)]
    assert len(refused) <= 40, refused[:10]


def test_a_legal_name_with_a_lineage_is_caught_by_its_given_and_family_name():
    """«سالم العتيبي» is what the bearer of «سالم بن ناصر العتيبي» is called."""
    nasab = IdentityGate(
        [
            Person(
                pk=9,
                name="سالم بن ناصر العتيبي",
                other_spellings="Salem bin Nasser al-Otaibi",
                public_name="الشاهد",
                identity_protected=True,
            )
        ]
    )
    for text in ("قال سالم العتيبي إن", "العتيبي، سالم", "Salim Otaibi said"):
        page = f"<p>{html.escape(text)}</p>"
        assert [p.pk for p in nasab.people_in(text)] == [9], text
        assert [p.pk for p in nasab.people_in_output(page)] == [9], text
