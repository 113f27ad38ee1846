"""Small text helpers every app shares."""


def lines(text: str) -> list[str]:
    """The non-empty, stripped lines of a one-per-line field."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]
