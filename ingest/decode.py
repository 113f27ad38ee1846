"""Bytes and pasted text → clean story text, or a clear refusal.

Editors upload files saved by Word, Notepad or a partner's CMS: UTF-8 with or without a
BOM, UTF-16 from Notepad's "Unicode", and Windows-1256 from older Arabic Windows
set-ups.
Anything else, and anything that is not text at all, is refused with a message that says
what was found and what to do.
"""

import codecs
import re

from django.utils.translation import gettext as _

from .problems import Problem, StoryImportError, error, warning

# A long feature is ~50,000 characters; forty times that is a mistake, not a story.
MAX_CHARS = 2_000_000
MAX_BYTES = 4 * MAX_CHARS  # UTF-8 Arabic takes two bytes a letter, UTF-16 two or four

# File signatures editors upload by mistake, named so the message can say what it was.
_SIGNATURES = (
    (b"%PDF", "PDF"),
    (b"PK\x03\x04", "Word document or ZIP archive"),
    (b"\xd0\xcf\x11\xe0", "old Word document"),
    (b"\x89PNG", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF8", "GIF image"),
    (b"{\\rtf", "RTF document"),
)
# Control characters that never appear in text (tab, newlines and form feed do).
_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f]")
_ARABIC_LETTER_RE = re.compile("[\u0621-\u064a]")
_LETTER_RE = re.compile(r"[^\W\d_]")
_TRAILING_SPACE = " \t\u00a0\u200b\ufeff"


def text_from_bytes(data: bytes) -> tuple[str, list[Problem]]:
    """Decode an uploaded or piped story; returns the text and any warnings.

    Raises StoryImportError when the bytes are not a text file we can read.
    """
    if len(data) > MAX_BYTES:
        raise StoryImportError(
            [
                error(
                    _("The file is too large (%(size)s MB); the limit is %(limit)s MB.")
                    % {"size": _megabytes(len(data)), "limit": _megabytes(MAX_BYTES)},
                    code="too_large",
                    bytes=len(data),
                    limit=MAX_BYTES,
                )
            ]
        )
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            raise StoryImportError(
                [
                    error(
                        _(
                            "This is a %(kind)s, not a text file; copy the story's "
                            "text "
                            "and paste it, or save it as .txt."
                        )
                        % {"kind": kind},
                        code="not_text",
                        kind=kind,
                    )
                ]
            )
    problems: list[Problem] = []
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise StoryImportError(
                [
                    error(
                        _(
                            "The file says it is UTF-16 but is damaged; "
                            "save it as UTF-8."
                        ),
                        code="bad_encoding",
                        encoding="utf-16",
                    )
                ]
            ) from None
    else:
        if b"\x00" in data:
            raise StoryImportError([_binary_problem(data.index(b"\x00"), data)])
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            text = _from_windows_arabic(data, exc)
            problems.append(
                warning(
                    _(
                        "The file was not UTF-8; it was read as Windows-1256 "
                        "(Arabic Windows) and converted. Check the letters."
                    ),
                    code="converted_encoding",
                    encoding="cp1256",
                )
            )
    text, more = clean_text(text)
    return text, problems + more


def clean_text(text: str) -> tuple[str, list[Problem]]:
    """Normalize pasted text (BOM, line ends, trailing spaces) and refuse non-text.

    Raises StoryImportError for empty, binary-looking or over-size text.
    """
    if len(text) > MAX_CHARS:
        raise StoryImportError(
            [
                error(
                    _(
                        "The story is too long (%(count)s characters); the limit is "
                        "%(limit)s characters."
                    )
                    % {"count": f"{len(text):,}", "limit": f"{MAX_CHARS:,}"},
                    code="too_long",
                    characters=len(text),
                    limit=MAX_CHARS,
                )
            ]
        )
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    controls = _CONTROL_RE.findall(text)
    if controls and (len(controls) > 10 or "\x00" in controls):
        position = _CONTROL_RE.search(text).start()
        line = text.count("\n", 0, position) + 1
        raise StoryImportError(
            [
                error(
                    _(
                        "This looks like binary data, not text: control characters "
                        "starting on line %(line)s."
                    )
                    % {"line": line},
                    line,
                    code="binary",
                )
            ]
        )
    problems = []
    if controls:
        problems.append(
            warning(
                _("Invisible control characters were removed."),
                code="control_characters",
                count=len(controls),
            )
        )
        text = _CONTROL_RE.sub("", text)
    # rstrip per line, not a "[ ]+$" pattern: that one retries at every space of a
    # long run that does not end the line, quadratic in the run's length.
    text = "\n".join(line.rstrip(_TRAILING_SPACE) for line in text.split("\n"))
    text = text.strip("\n")
    if not text.strip():
        raise StoryImportError(
            [error(_("The story is empty: there is no text to import."), code="empty")]
        )
    return text, problems


def _from_windows_arabic(data: bytes, exc: UnicodeDecodeError) -> str:
    """Read bytes as Windows-1256 if they then look like Arabic, or refuse clearly."""
    line = data.count(b"\n", 0, exc.start) + 1
    try:
        text = data.decode("cp1256")
    except UnicodeDecodeError:
        text = ""
    letters = _LETTER_RE.findall(text)
    arabic = _ARABIC_LETTER_RE.findall(text)
    if letters and len(arabic) >= len(letters) * 0.3 and not _CONTROL_RE.search(text):
        return text
    raise StoryImportError(
        [
            error(
                _(
                    "The file is not UTF-8 (byte 0x%(byte)02X on line %(line)s) "
                    "and does not look like Windows-1256 Arabic either; save it "
                    "as UTF-8 and try "
                    "again."
                )
                % {"byte": data[exc.start], "line": line},
                line,
                code="bad_encoding",
                byte=data[exc.start],
            )
        ]
    )


def _binary_problem(position: int, data: bytes) -> Problem:
    line = data.count(b"\n", 0, position) + 1
    return error(
        _(
            "This looks like a binary file, not text: it contains NUL bytes "
            "(first on line %(line)s)."
        )
        % {"line": line},
        line,
        code="binary",
    )


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f}"
