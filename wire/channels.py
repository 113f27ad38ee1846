"""Polling a channel: a drop folder's files or a feed's document, each parsed and
every item received (`services.wire_receive`), with a line in the channel's log.

Drop folder: each file is taken by renaming it, under a name of its own, into
`processing/` (atomic on one file system, so two pollers never read the same
file), then moved to `archive/` once read, or to `rejected/` with a `.error.txt`
beside it saying why. A file is never deleted or overwritten. Files whose names
start with "." or end in .part/.tmp are still being uploaded and are left for the
next poll; one left in `processing/` by a poll that stopped is taken again once
stale. A file's items and its log line are one transaction.
"""

import logging
import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from uuid import uuid4

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .fetching import fetch
from .folders import drop_folder
from .formats import WireFormatError, parse_wire
from .models import Channel, ChannelLog
from .services import wire_receive

logger = logging.getLogger(__name__)

_UPLOADING = (".part", ".tmp", ".filepart")
# A file in processing/ this much older than now was left by a poll that stopped.
STALE_SECONDS = 600


@dataclass
class PollReport:
    files: int = 0
    rejected: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)

    def count(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1


def channels_due(now: datetime | None = None) -> list[Channel]:
    """Active channels whose interval has passed since their last poll."""
    now = now or timezone.now()
    return [
        channel
        for channel in Channel.objects.filter(active=True).select_related("source")
        if channel.last_polled_at is None
        or (now - channel.last_polled_at).total_seconds() >= channel.every_minutes * 60
    ]


def _lock_key(channel_id: int) -> str:
    return f"wire:poll:{channel_id}"


def poll_claim(channel_id: int) -> bool:
    """Mark the channel as queued or being polled; False when it is already.
    The cache is shared by every process (Redis in production) and `add` is
    atomic there; the mark lapses after WIRE_POLL_LOCK_SECONDS, should the
    worker holding it die."""
    return cache.add(_lock_key(channel_id), "1", settings.WIRE_POLL_LOCK_SECONDS)


def poll_release(channel_id: int) -> None:
    cache.delete(_lock_key(channel_id))


def channel_poll(channel: Channel, *, now: datetime | None = None) -> PollReport:
    """Read what the channel has brought since the last poll."""
    report = PollReport()
    if channel.kind == Channel.Kind.FOLDER:
        _poll_folder(channel, report, now)
    else:
        _poll_feed(channel, report, now)
    Channel.objects.filter(pk=channel.pk).update(last_polled_at=timezone.now())
    return report


def _log(channel: Channel, level: str, message: str, file_name: str = "") -> None:
    ChannelLog.objects.create(
        channel=channel, level=level, message=message[:2000], file_name=file_name[:300]
    )
    if level == ChannelLog.Level.ERROR:
        logger.warning("Wire channel %s: %s %s", channel.pk, file_name, message[:200])


def _receive_all(channel: Channel, data: bytes, report: PollReport, now) -> str:
    """Parse and receive every item of one document; a summary for the log."""
    items = parse_wire(data)
    for item in items:
        _row, outcome = wire_receive(channel=channel, item=item, now=now)
        report.count(outcome)
    return ", ".join(f"{i.guid} v{i.version} ({i.status})" for i in items)[:1500]


def _poll_folder(channel: Channel, report: PollReport, now) -> None:
    try:
        # Again at every poll: a link inside the root may have been changed to
        # point elsewhere since the channel was saved.
        base = drop_folder(channel.folder)
    except ValueError as exc:
        _log(channel, ChannelLog.Level.ERROR, str(exc), channel.folder)
        return
    if not base.is_dir():
        _log(
            channel,
            ChannelLog.Level.ERROR,
            _("The drop folder %(folder)s does not exist.") % {"folder": base},
        )
        return
    processing, archive, rejected = (
        base / n for n in ("processing", "archive", "rejected")
    )
    for folder in (processing, archive, rejected):
        # Whoever uploads into the folder could make archive/ a link to
        # anywhere: files are moved only within the folder itself.
        if folder.is_symlink():
            _log(
                channel,
                ChannelLog.Level.ERROR,
                _("%(folder)s is a link; nothing was moved.") % {"folder": folder},
            )
            return
        folder.mkdir(exist_ok=True)
    # Files a poll left in processing/ when it stopped half-way come first; a
    # fresh one may be another poll's, still at work.
    stale = time.time() - STALE_SECONDS
    left = [p for p in _files(processing) if _mtime(p) < stale]
    arrived = sorted(
        (p for p in _files(base) if not p.name.endswith(_UPLOADING)), key=_mtime
    )
    for path in [*left, *arrived]:
        name = path.name.split("--", 1)[-1] if path.parent == processing else path.name
        taken = processing / f"{uuid4().hex[:12]}--{name}"
        try:
            # Atomic on one file system: of two pollers, one gets the file.
            path.rename(taken)
            os.utime(taken)
        except FileNotFoundError:
            continue
        _read_file(channel, taken, name, report, now, archive, rejected)


def _files(folder: Path) -> list[Path]:
    # A link would have the poll read (and move) a file from outside the folder.
    return [
        p
        for p in folder.iterdir()
        if p.is_file() and not p.is_symlink() and not p.name.startswith(".")
    ]


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _read_file(channel, path: Path, name: str, report, now, archive, rejected) -> None:
    """Receive one taken file; archive it, or keep it aside with its error."""
    report.files += 1
    try:
        size = path.stat().st_size
        limit = settings.WIRE_ITEM_MAX_BYTES
        if size > limit:
            raise WireFormatError(
                _("The file is %(size)s bytes; the limit is %(limit)s.")
                % {"size": f"{size:,}", "limit": f"{limit:,}"}
            )
        data = path.read_bytes()
        # A file's items and its log line are one transaction: a file is received
        # whole or not at all (and commits once).
        with transaction.atomic():
            counted = PollReport()
            summary = _receive_all(channel, data, counted, now)
            _log(channel, ChannelLog.Level.INFO, summary, name)
    except (WireFormatError, DatabaseError, OSError) as exc:
        _reject(channel, path, rejected / path.name, exc, report, name)
        return
    except Exception as exc:  # one broken file must not stop the others
        logger.exception("Wire file %s failed", name)
        _reject(channel, path, rejected / path.name, exc, report, name)
        return
    for outcome, count in counted.outcomes.items():
        report.outcomes[outcome] = report.outcomes.get(outcome, 0) + count
    path.rename(archive / path.name)


def _reject(
    channel, path: Path, target: Path, exc: Exception, report, name: str
) -> None:
    report.rejected += 1
    message = (
        str(exc) if isinstance(exc, WireFormatError) else f"{type(exc).__name__}: {exc}"
    )
    path.rename(target)
    target.with_name(target.name + ".error.txt").write_text(
        message + "\n", encoding="utf-8"
    )
    _log(channel, ChannelLog.Level.ERROR, f"{message} (kept as {target.name})", name)


def _poll_feed(channel: Channel, report: PollReport, now) -> None:
    try:
        answer = fetch(
            channel.url,
            max_bytes=settings.WIRE_ITEM_MAX_BYTES,
            etag=channel.feed_etag,
            modified=channel.feed_modified,
            authorization=channel.authorization(),
        )
    except WireFormatError as exc:
        _log(channel, ChannelLog.Level.ERROR, str(exc), channel.url)
        return
    if answer.data is None:  # unchanged since the last poll
        return
    data = answer.data
    report.files += 1
    try:
        with transaction.atomic():
            counted = PollReport()
            summary = _receive_all(channel, data, counted, now)
    except Exception as exc:
        report.rejected += 1
        kept = _keep_aside(channel, data)
        message = str(exc) if isinstance(exc, WireFormatError) else type(exc).__name__
        if not isinstance(exc, WireFormatError):
            logger.exception("Wire feed of channel %s failed", channel.pk)
        _log(
            channel, ChannelLog.Level.ERROR, f"{message} (kept as {kept})", channel.url
        )
        return
    report.outcomes = counted.outcomes
    # Remembered once read: a document that failed is asked for whole next time.
    Channel.objects.filter(pk=channel.pk).update(
        feed_etag=answer.etag, feed_modified=answer.modified
    )
    # A feed read again holds what was read before: only news is worth a line.
    if set(counted.outcomes) - {"seen"}:
        _log(channel, ChannelLog.Level.INFO, summary, channel.url)


def _keep_aside(channel: Channel, data: bytes) -> str:
    """A feed document that could not be read, kept for the source manager."""
    folder = Path(settings.WIRE_REJECTED_DIR) / str(channel.pk)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{timezone.now():%Y%m%dT%H%M%S%f}.feed"
    path.write_bytes(data)
    return str(path)
