"""Dates for display (Gregorian and Hijri, in the site's month style and digits) and
month names for reading dates written by other outlets."""

from datetime import date, datetime
from typing import Literal, get_args

from django.utils import dateformat, translation
from hijridate import Gregorian, Hijri

from .normalize import normalize

# Which Arabic names a site prints for Gregorian months; see NEWSROOM_MONTH_STYLE.
MonthStyle = Literal["gulf", "levant", "both"]
MONTH_STYLES: tuple[str, ...] = get_args(MonthStyle)
# Which digits Arabic pages print dates and counts in; see NEWSROOM_DIGITS.
Digits = Literal["western", "arabic-indic"]
DIGITS: tuple[str, ...] = get_args(Digits)

# Gulf/Egyptian names, as used by UAE newsrooms.
MONTHS_AR = (
    "يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو",
    "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر",
)  # fmt: skip
# Levantine/Iraqi names; many outlets print both, as in "مايو (أيار)".
MONTHS_LEVANT = (
    "كانون الثاني", "شباط", "آذار", "نيسان", "أيار", "حزيران",
    "تموز", "آب", "أيلول", "تشرين الأول", "تشرين الثاني", "كانون الأول",
)  # fmt: skip
MONTHS_EN = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip

# Normalized month name → month number, every spelling above plus common variants.
MONTH_NUMBERS: dict[str, int] = {}
for _names in (MONTHS_AR, MONTHS_LEVANT, MONTHS_EN):
    for _number, _name in enumerate(_names, start=1):
        MONTH_NUMBERS[normalize(_name)] = _number
for _number, _name in enumerate(MONTHS_EN, start=1):
    MONTH_NUMBERS[_name[:3]] = _number
MONTH_NUMBERS.update({normalize("إبريل"): 4, normalize("اغسطس"): 8, "sept": 9})


def month_number(name: str) -> int | None:
    """The month number for an Arabic (Gulf or Levant) or English month name."""
    return MONTH_NUMBERS.get(normalize(name).rstrip("."))


ARABIC_INDIC_DIGITS = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def with_digits(text: str, digits: Digits = "western") -> str:
    """The text with its Western digits written as `digits` ("12" → "١٢")."""
    if digits == "arabic-indic":
        return text.translate(ARABIC_INDIC_DIGITS)
    return text


def with_digits_for(text: str, language: str, digits: Digits) -> str:
    """The text in the site's digits on an Arabic page; English pages keep 0–9."""
    return with_digits(text, digits) if is_arabic(language) else text


def is_arabic(language: str) -> bool:
    """Whether `language` ("ar", "ar-ae", "en") is an Arabic edition."""
    return (language or "").split("-")[0] == "ar"


def month_name_ar(month: int, style: MonthStyle = "gulf") -> str:
    """The Arabic name of a Gregorian month: "ديسمبر", "كانون الأول" or both."""
    gulf, levant = MONTHS_AR[month - 1], MONTHS_LEVANT[month - 1]
    if style == "levant":
        return levant
    if style == "both":
        return f"{gulf} ({levant})"
    return gulf


def format_date_ar(
    value: date | datetime, *, style: MonthStyle = "gulf", digits: Digits = "western"
) -> str:
    """A date the way an Arabic reader expects it: "12 ديسمبر 2024"."""
    text = f"{value.day} {month_name_ar(value.month, style)} {value.year}"
    return with_digits(text, digits)


def format_date_en(value: date | datetime) -> str:
    """A date in English: "12 December 2024"."""
    with translation.override("en"):
        return dateformat.format(value, "j F Y")


def to_hijri(value: date | datetime) -> Hijri | None:
    """The Umm al-Qura date of a day, or None outside its table (1924–2077)."""
    try:
        return Gregorian(value.year, value.month, value.day).to_hijri()
    except OverflowError:
        return None


def format_hijri(value: Hijri, *, language: str, digits: Digits = "western") -> str:
    """A Hijri date in Arabic or English: "11 جمادى الآخرة 1446"."""
    if is_arabic(language):
        text = f"{value.day} {value.month_name('ar')} {value.year}"
        return with_digits(text, digits)
    return f"{value.day} {value.month_name('en')} {value.year}"


def weekday_name(value: date | datetime, language: str) -> str:
    """The day of the week in `language`, from Django's translations: "الخميس"."""
    with translation.override(language):
        return dateformat.format(value, "l")


def format_date(
    value: date | datetime,
    *,
    language: str,
    style: MonthStyle = "gulf",
    digits: Digits = "western",
    full: bool = False,
) -> str:
    """A local date for a page in `language`; `full` adds the weekday and Hijri date.

    "الخميس 12 ديسمبر 2024 — 11 جمادى الآخرة 1446" or
    "Thursday 12 December 2024 — 11 Jumada al-Akhirah 1446". The month style and the
    digits only apply to Arabic: an English page keeps English names and 0–9.
    """
    if is_arabic(language):
        text = format_date_ar(value, style=style, digits=digits)
    else:
        text = format_date_en(value)
    if not full:
        return text
    text = f"{weekday_name(value, language)} {text}"
    hijri = to_hijri(value)
    if hijri is not None:
        text = f"{text} — {format_hijri(hijri, language=language, digits=digits)}"
    return text
