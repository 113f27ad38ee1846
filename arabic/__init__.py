"""Arabic text helpers shared by every app: normalization for matching, dates, slugs."""

from .normalize import normalize, search_fold, strip_clitics, strip_marks

__all__ = ["normalize", "search_fold", "strip_clitics", "strip_marks"]
