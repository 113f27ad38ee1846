"""One large picture decoded at a time in each worker process.

A decoded picture costs about 4 bytes a pixel, twice over while it is turned upright
and re-encoded: a 40-megapixel photo holds several hundred MB for a moment. With
threaded workers, two or three such uploads at once would multiply that, so large
pictures take turns; small ones (the usual web photo) never wait.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager

LARGE_PIXELS = 12_000_000
_large_picture = threading.Lock()


@contextmanager
def decoding(width: int, height: int) -> Iterator[None]:
    """Hold this process's one place for a large picture while it is decoded."""
    if width * height < LARGE_PIXELS:
        yield
        return
    with _large_picture:
        yield
