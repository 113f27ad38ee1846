"""A word mixing scripts is refused in public text (UTS #39 mixed-script
detection), whoever's name it spells: generated from Unicode's data, with the
`regex` module's Script property as the second reading of that data."""

import pytest
import regex
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from articles.models import Article
from articles.services import StoryEdit, article_save
from core.roles import EDITORS
from identity.gate import IdentityLeakError, MixedScriptError
from identity.text.scripts import is_mixed, mixed_words
from tests.factories import ProtectedPersonFactory, member_of

from .disguises import look_alikes

LATIN_WORDS = ("Market", "Harbour", "Nizar", "minister", "Salma")
_SCRIPT = regex.compile(r"\p{Script=Latin}|\p{Script=Common}|\p{Script=Inherited}")


def foreign_look_alikes(letter: str) -> list[str]:
    """The look-alikes of `letter` written in a script other than Latin, by the
    `regex` module's reading of Unicode's Scripts data."""
    return [
        glyph
        for glyph in look_alikes(letter)
        if len(glyph) == 1 and glyph.isalpha() and not _SCRIPT.fullmatch(glyph)
    ]


_ARABIC = regex.compile(r"\p{Script=Arabic}")
# Every foreign look-alike of every letter; an Arabic one only inside the word (at
# its edge it is read as a clitic glued to a Latin name, والـCNN).
FOREIGN = [
    (word, index, glyph)
    for word in LATIN_WORDS
    for index, letter in enumerate(word)
    for glyph in foreign_look_alikes(letter)
    if 0 < index < len(word) - 1 or not _ARABIC.match(glyph)
]


def test_every_foreign_look_alike_in_a_latin_word_is_mixed():
    missed = [
        (word, glyph)
        for word, index, glyph in FOREIGN
        if not is_mixed(word[:index] + glyph + word[index + 1 :])
    ]
    assert len(FOREIGN) > 100
    assert missed == []


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        st.characters(categories=["Lu", "Ll", "Lo", "Mn", "Nd"]), min_size=1
    ).filter(str.isalnum)
)
def test_a_word_of_one_script_is_never_mixed(word):
    scripts = {
        script
        for script in ("Latin", "Greek", "Cyrillic", "Arabic", "Hebrew", "Armenian")
        if regex.search(rf"\p{{Script={script}}}", word)
    }
    if len(scripts) <= 1 and all(
        regex.fullmatch(
            r"[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}"
            r"\p{Script=Hebrew}\p{Script=Armenian}\p{Script=Common}"
            r"\p{Script=Inherited}]",
            char,
        )
        for char in word
    ):
        assert not is_mixed(word)


@pytest.mark.parametrize(
    "text", ["والـCNN", "بـiPhone", "COVID١٩", "iPhone手机", "ソニーのWalkman"]
)
def test_the_scripts_one_writing_system_uses_together_are_not_mixed(text):
    """Arabic clitics glued to Latin names; Latin with Han and kana."""
    assert mixed_words(text) == []


def test_an_arabic_letter_inside_a_latin_word_is_mixed():
    assert mixed_words("Harbهur") == ["Harbهur"]


def test_a_mark_of_another_script_on_an_arabic_letter_makes_the_word_mixed():
    """Every combining mark that has a script of its own, neither Arabic nor the
    marks scripts share (Unicode's Scripts data): a Devanagari anusvara set on ر
    draws the dot of ز."""
    marks = [
        char
        for char in map(chr, range(0x0300, 0x20000))
        if regex.match(r"\p{Mn}", char)
        and not regex.match(
            r"[\p{Script=Arabic}\p{Script=Inherited}\p{Script=Common}]", char
        )
    ]
    assert len(marks) > 1000
    assert [mark for mark in marks if not is_mixed(f"مار{mark}ن")] == []


def test_each_mixed_word_is_named_once():
    text = "Mаrket and Mаrket then Ηarbour"  # Cyrillic а, Greek Η
    assert mixed_words(text) == ["Mаrket", "Ηarbour"]


# ------------------------------------------------------------ the door


@pytest.fixture
def editor(db):
    return member_of(EDITORS)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.django_db
def test_a_story_with_a_mixed_word_is_refused_and_nothing_is_written(editor):
    word, index, glyph = FOREIGN[0]
    disguised = word[:index] + glyph + word[index + 1 :]
    edit = StoryEdit(article=Article(language="en", headline_en=f"The {disguised}"))
    with pytest.raises(MixedScriptError) as refused:
        article_save(edit=edit, by=editor)
    assert "headline" in refused.value.messages[0]
    assert f"«{disguised}»" in refused.value.messages[0]
    assert not Article.objects.exists()


@pytest.mark.django_db
def test_a_mixed_word_written_as_entities_is_refused(editor):
    edit = StoryEdit(article=Article(language="en", headline_en="M&#x430;rket day"))
    with pytest.raises(MixedScriptError):
        article_save(edit=edit, by=editor)


@pytest.mark.django_db
def test_a_protected_name_in_mixed_letters_is_refused_as_the_name(editor):
    """The name is what matters; the message says so, never which name."""
    ProtectedPersonFactory(name="نزار الحلبوني", other_spellings="Nizar al-Halbouni")
    edit = StoryEdit(
        article=Article(language="en", headline_en="Nizаr al-Halbouni speaks")
    )
    with pytest.raises(IdentityLeakError) as refused:
        article_save(edit=edit, by=editor)
    assert "Nizar" not in refused.value.messages[0]
