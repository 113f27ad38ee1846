"""Display dates: Hijri conversion, Arabic month styles, digits and the full form."""

from datetime import date

import pytest

from arabic.dates import (
    format_date,
    format_date_ar,
    format_hijri,
    month_name_ar,
    to_hijri,
    with_digits,
)

# Each expectation was read from hijridate 2.6.0 (Umm al-Qura) before being written.
KNOWN_DAYS = [
    (date(2024, 12, 12), (1446, 6, 11)),
    (date(2025, 3, 1), (1446, 9, 1)),
    (date(2023, 6, 28), (1444, 12, 10)),
]


@pytest.mark.parametrize(("day", "expected"), KNOWN_DAYS)
def test_hijri_date_follows_umm_al_qura(day, expected):
    """A Gregorian day converts to its Umm al-Qura (year, month, day)."""
    assert to_hijri(day).datetuple() == expected


def test_hijri_date_in_arabic():
    """The Hijri date is written with the Arabic month name."""
    assert format_hijri(to_hijri(date(2025, 3, 1)), language="ar") == "1 رمضان 1446"


def test_hijri_date_in_english():
    """The Hijri date is written with the English month name on English pages."""
    assert (
        format_hijri(to_hijri(date(2023, 6, 28)), language="en")
        == "10 Dhu al-Hijjah 1444"
    )


def test_day_outside_the_umm_al_qura_table_has_no_hijri_date():
    """A day before 1924 has no Hijri date rather than an error."""
    assert to_hijri(date(1900, 1, 1)) is None


def test_full_date_leaves_out_a_hijri_date_it_cannot_know():
    """An old day is shown with its weekday and Gregorian date only."""
    assert format_date(date(1900, 1, 1), language="en", full=True) == (
        "Monday 1 January 1900"
    )


def test_gulf_month_names_are_the_default():
    """Without a style, Arabic months are the Gulf names."""
    assert format_date_ar(date(2024, 12, 12)) == "12 ديسمبر 2024"


def test_levant_month_names():
    """The levant style writes the Levantine month name."""
    assert format_date_ar(date(2024, 12, 12), style="levant") == "12 كانون الأول 2024"


def test_both_month_names():
    """The both style writes the Gulf name with the Levantine one in brackets."""
    assert month_name_ar(5, "both") == "مايو (أيار)"


def test_arabic_indic_digits():
    """Arabic-Indic digits replace every Western digit and nothing else."""
    assert with_digits("12 مايو 2024", "arabic-indic") == "١٢ مايو ٢٠٢٤"


def test_western_digits_leave_the_text_alone():
    """The western setting keeps 0–9."""
    assert with_digits("12 مايو 2024", "western") == "12 مايو 2024"


def test_full_arabic_date():
    """The full Arabic date gives weekday, Gregorian and Hijri dates."""
    assert format_date(date(2024, 12, 12), language="ar", full=True) == (
        "الخميس 12 ديسمبر 2024 — 11 جمادى الآخرة 1446"
    )


def test_full_arabic_date_in_arabic_indic_digits():
    """Both the Gregorian and the Hijri parts take the site's digits."""
    assert format_date(
        date(2025, 3, 1), language="ar", digits="arabic-indic", full=True
    ) == ("السبت ١ مارس ٢٠٢٥ — ١ رمضان ١٤٤٦")


def test_full_english_date():
    """The full English date gives weekday, Gregorian and Hijri dates in English."""
    assert format_date(date(2024, 12, 12), language="en", full=True) == (
        "Thursday 12 December 2024 — 11 Jumada al-Akhirah 1446"
    )


def test_english_date_ignores_arabic_style_and_digits():
    """English pages keep English month names and Western digits whatever is set."""
    assert (
        format_date(
            date(2024, 12, 12), language="en", style="levant", digits="arabic-indic"
        )
        == "12 December 2024"
    )
