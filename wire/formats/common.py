"""What both formats' readers share: limits, dates, languages, versions."""

import re
from datetime import UTC, datetime

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .item import WireFormatError

# A document's bytes and elements are bounded by settings (bounds.py).
MAX_ITEMS_PER_FILE = 500
MAX_HEADLINE = 300

_MEDIA_TOPIC_RE = re.compile(r"(?:medtop:|/mediatopic/)(\d{8})\b")


def media_topic(value: str) -> str:
    """The Media Topic code in a qcode ("medtop:20000568") or a URI, else ""."""
    match = _MEDIA_TOPIC_RE.search(value or "")
    return match.group(1) if match else ""


def when(value: str | None) -> datetime | None:
    """An aware datetime from the agency's ISO 8601 text; naive ones are UTC."""
    if not value:
        return None
    try:
        moment = parse_datetime(value.strip())
    except ValueError:
        moment = None
    if moment is None:
        raise WireFormatError(f"“{value[:40]}” is not a date and time.")
    if timezone.is_naive(moment):
        moment = moment.replace(tzinfo=UTC)
    return moment


def version_number(value) -> int:
    """The agency's version as a number (NewsML-G2 and ninjs both count from 1)."""
    try:
        number = int(str(value or "1").strip())
    except ValueError:
        raise WireFormatError(
            f"The version “{str(value)[:20]}” is not a number."
        ) from None
    if number < 1:
        raise WireFormatError("The version must be 1 or more.")
    return number


def language_code(value: str) -> str:
    """ "ar-AE" → "ar"; our editions are Arabic and English."""
    return (value or "").strip().lower().split("-")[0][:5]


def one_line(value: str | None, limit: int = MAX_HEADLINE) -> str:
    return " ".join((value or "").split())[:limit]


def urgency(value) -> int | None:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 1 <= number <= 9 else None
