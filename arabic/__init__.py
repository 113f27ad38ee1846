"""Arabic text helpers shared by every app: normalization for matching, dates, slugs."""

from .normalize import normalize, strip_clitics, strip_marks

__all__ = ["normalize", "strip_clitics", "strip_marks"]
