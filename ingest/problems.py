"""What the importer tells an editor: problems with line numbers, and its exception."""

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"
# A protected identity in the input: shown loudly, and the import is refused.
ALERT = "alert"


@dataclass(frozen=True)
class Problem:
    """One thing wrong or worth a look in the input, with the line it applies to.

    `code` is stable (machines match on it, e.g. "unknown_source"); `params` are
    the values the message was made from, as (name, value) pairs.
    """

    message: str
    line: int | None = None
    level: str = ERROR
    code: str = ""
    params: tuple[tuple[str, object], ...] = ()

    @property
    def is_error(self) -> bool:
        """Whether the problem stops the import."""
        return self.level in (ERROR, ALERT)

    def __str__(self) -> str:
        if self.line:
            return f"line {self.line}: {self.message}"
        return self.message

    def as_dict(self) -> dict:
        return {
            "level": self.level,
            "code": self.code,
            "line": self.line,
            "message": str(self.message),
            "params": dict(self.params),
        }


def _params(params: dict) -> tuple[tuple[str, object], ...]:
    return tuple(sorted((k, v if v is None else _plain(v)) for k, v in params.items()))


def _plain(value: object) -> object:
    return value if isinstance(value, int | float | bool) else str(value)


def error(
    message: str, line: int | None = None, *, code: str = "error", **params
) -> Problem:
    return Problem(str(message), line, ERROR, code, _params(params))


def warning(
    message: str, line: int | None = None, *, code: str = "warning", **params
) -> Problem:
    return Problem(str(message), line, WARNING, code, _params(params))


def alert(
    message: str, line: int | None = None, *, code: str = "alert", **params
) -> Problem:
    return Problem(str(message), line, ALERT, code, _params(params))


class StoryImportError(Exception):
    """The only exception the import services raise; it carries every problem found.

    `result` holds what was recognized before the import was refused (or None when the
    input could not even be read), so callers can still show it to the editor.
    """

    def __init__(self, problems: list[Problem], result=None) -> None:
        self.problems = problems
        self.result = result
        super().__init__(
            "; ".join(str(p) for p in problems if p.is_error) or "import failed"
        )

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]
