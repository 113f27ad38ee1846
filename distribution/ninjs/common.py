"""Small helpers every part of a document uses."""

from datetime import UTC, datetime


def when(value: datetime | None) -> str | None:
    """A moment as RFC 3339 in UTC, to the second."""
    if value is None:
        return None
    utc = value.astimezone(UTC)
    return utc.isoformat(timespec="seconds").replace("+00:00", "Z")


def compact(data: dict) -> dict:
    """`data` without its empty values: ninjs leaves out what is not known."""
    return {key: value for key, value in data.items() if value not in (None, "", [])}
