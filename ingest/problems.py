"""What the importer tells an editor: problems with line numbers, and its exception."""

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"
# A protected identity in the input: shown loudly, and the import is refused.
ALERT = "alert"


@dataclass(frozen=True)
class Problem:
    """One thing wrong or worth a look in the input, with the line it applies to."""

    message: str
    line: int | None = None
    level: str = ERROR

    @property
    def is_error(self) -> bool:
        """Whether the problem stops the import."""
        return self.level in (ERROR, ALERT)

    def __str__(self) -> str:
        if self.line:
            return f"line {self.line}: {self.message}"
        return self.message

    def as_dict(self) -> dict:
        return {"line": self.line, "message": str(self.message)}


def error(message: str, line: int | None = None) -> Problem:
    return Problem(str(message), line, ERROR)


def warning(message: str, line: int | None = None) -> Problem:
    return Problem(str(message), line, WARNING)


def alert(message: str, line: int | None = None) -> Problem:
    return Problem(str(message), line, ALERT)


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
