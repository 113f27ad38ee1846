"""Large pictures decoded a few at a time on each machine.

A decoded picture costs about 4 bytes a pixel, twice over while it is turned upright
and re-encoded: a 40-megapixel photo holds several hundred MB for a moment. Web
workers checking uploads and task workers making renditions run side by side on one
machine, each in processes of its own, so a lock inside one process would let every
process decode at once. Large pictures therefore take one of `DECODE_SLOTS` slots,
each a file in `DECODE_SLOTS_DIR` held with `flock` (released by the kernel when its
holder ends, even killed); small ones (the usual web photo) never wait.
"""

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

LARGE_PIXELS = 12_000_000


@contextmanager
def decoding(width: int, height: int) -> Iterator[None]:
    """Hold one of this machine's places for a large picture while it is decoded."""
    if width * height < LARGE_PIXELS:
        yield
        return
    with _slot(Path(settings.DECODE_SLOTS_DIR), max(1, settings.DECODE_SLOTS)):
        yield


@contextmanager
def _slot(folder: Path, slots: int) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    files = [open(folder / f"slot-{n}", "a") for n in range(slots)]  # noqa: SIM115
    try:
        held = next((f for f in files if _try_lock(f)), None)
        if held is None:
            # Every place is taken: wait for one, a different one per process so
            # waiters spread over the slots.
            held = files[os.getpid() % slots]
            fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
    finally:
        for f in files:
            f.close()


def _try_lock(file) -> bool:
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
