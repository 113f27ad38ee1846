"""Bad input is refused with a clear message, never a traceback."""

import pytest

from ingest.decode import MAX_BYTES, clean_text, text_from_bytes
from ingest.problems import StoryImportError


def refusal(data) -> str:
    with pytest.raises(StoryImportError) as caught:
        if isinstance(data, bytes):
            text_from_bytes(data)
        else:
            clean_text(data)
    return str(caught.value)


def test_empty_input_is_refused():
    """Blank input says the story is empty."""
    assert "empty" in refusal(b"  \r\n\n ")


def test_binary_input_is_refused_with_its_line():
    """NUL bytes mean binary data, and the message says where."""
    assert "line 2" in refusal(b"title\n\x00\x01\x02 data")


def test_undecodable_bytes_name_the_byte_and_line():
    """Bytes that are neither UTF-8 nor Arabic Windows text are refused."""
    message = refusal("Title\n\nCaf\u00e9 \u00e0 la cr\u00e8me".encode("latin-1"))
    assert "not UTF-8" in message and "line 3" in message


def test_twenty_megabytes_are_refused():
    """A 20 MB paste or file is refused before it is parsed."""
    assert "too large" in refusal(b"a" * (20 * 1024 * 1024))
    assert "too long" in refusal("ب" * (20 * 1024 * 1024))
    assert MAX_BYTES < 20 * 1024 * 1024


def test_utf16_from_notepad_is_read():
    """Notepad's "Unicode" (UTF-16 with a BOM) is decoded."""
    text, _warnings = text_from_bytes("عنوان\n\nفقرة".encode("utf-16"))
    assert text == "عنوان\n\nفقرة"
