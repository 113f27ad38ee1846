"""The one Arabic normalization used for every match and search."""

import pytest

from arabic import normalize, search_fold, strip_clitics
from arabic.dates import format_date_ar, month_number
from arabic.slugs import unicode_slug


@pytest.mark.parametrize(
    ("written", "folded"),
    [
        ("الأسد", "الاسد"),
        ("إسلام", "اسلام"),
        ("آمال", "امال"),
        ("ٱلله", "الله"),
        ("مستشفى", "مستشفي"),
        ("مدرسة", "مدرسه"),
        ("مؤتمر", "موتمر"),
        ("رئيس", "رييس"),
        ("مهرّب", "مهرب"),
        ("الْمَكْتَبَةُ", "المكتبه"),
        ("عـــاجل", "عاجل"),
        ("٢٠٢٤", "2024"),
        ("۱۲۳", "123"),
        ("فارسی", "فارسي"),
        ("کتاب", "كتاب"),
        ("قيصر\u200f", "قيصر"),
        ("  كلمتان   متباعدتان ", "كلمتان متباعدتان"),
        ("Caesar", "caesar"),
    ],
)
def test_normalize_folds_letter_forms(written, folded):
    """Every spelling variant folds to the same matching key."""
    assert normalize(written) == folded


def test_normalize_is_idempotent():
    """Folding folded text changes nothing."""
    text = "مهرّب أرشيف الأسد ٢٠١٤"
    assert normalize(normalize(text)) == normalize(text)


@pytest.mark.parametrize(
    ("word", "reading"),
    [
        ("وبشار", "بشار"),
        ("لقيصر", "قيصر"),
        ("وللاسد", "الاسد"),
        ("بالمكتبه", "المكتبه"),
        ("فسامي", "سامي"),
        ("كالبحر", "البحر"),
    ],
)
def test_strip_clitics_offers_the_bare_word(word, reading):
    """Proclitic stacks are peeled off to reach the name itself."""
    assert reading in strip_clitics(word)


def test_strip_clitics_keeps_at_least_two_letters():
    """A short word is not peeled down to a single letter."""
    assert strip_clitics("ول") == ["ول"]


def test_month_names_from_every_region_are_read():
    """Gulf, Levant and English month names give the same month."""
    assert (
        month_number("ديسمبر")
        == month_number("كانون الأول")
        == month_number("December")
        == 12
    )
    assert month_number("أيار") == month_number("مايو") == 5


def test_arabic_date_uses_arabic_month_names():
    """Dates read "12 ديسمبر 2024" on Arabic pages."""
    from datetime import date

    assert format_date_ar(date(2024, 12, 12)) == "12 ديسمبر 2024"


def test_unicode_slug_keeps_arabic_letters():
    """Slugs keep Arabic words instead of dropping them."""
    assert unicode_slug("عاجل: قيصر يكشف هويته") == "عاجل-قيصر-يكشف-هويته"


@pytest.mark.parametrize(
    ("one", "other"),
    [("مسئول", "مسؤول"), ("شئون", "شؤون"), ("رءوف", "رؤوف"), ("\ufe8b", "ؤ")],
)
def test_search_fold_reads_every_hamza_seat_as_the_hamza(one, other):
    assert search_fold(one) == search_fold(other)


def test_search_fold_is_normalize_apart_from_the_hamza_seats():
    assert search_fold("الأَسد في مدرسة ٢٠٢٤") == normalize("الأَسد في مدرسة ٢٠٢٤")


def test_matching_keeps_the_seat_letters():
    """The identity matcher reads normalize(), whose folding this does not change."""
    assert normalize("مسئول") == "مسيول"
    assert normalize("مسؤول") == "مسوول"
