"""Arabic month names for display and for reading dates written by other outlets."""

from datetime import date, datetime

from .normalize import normalize

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


def format_date_ar(value: date | datetime) -> str:
    """A date the way an Arabic reader expects it: "12 ديسمبر 2024"."""
    return f"{value.day} {MONTHS_AR[value.month - 1]} {value.year}"


def format_date_en(value: date | datetime) -> str:
    return f"{value.day} {MONTHS_EN[value.month - 1].capitalize()} {value.year}"
