"""Where records live: the least recently used pruned, and the log a recorded build's
forked workers append to."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

from printdeck.rerun.replay import MAX_RECORDS

MAX_RECORDS_BYTES = 200_000_000
"""Records kept in all, bytes; the least recently used beyond are removed."""


def prune(records: Iterable[Path]) -> None:
    """Remove the least recently used records beyond :data:`MAX_RECORDS` of them or
    :data:`MAX_RECORDS_BYTES` in all."""
    dated = []
    for path in records:
        try:
            info = path.stat()
        except OSError:
            continue
        dated.append((info.st_mtime_ns, info.st_size, path))
    total = 0
    for rank, (_, size, path) in enumerate(sorted(dated, reverse=True)):
        total += size
        if rank >= MAX_RECORDS or total > MAX_RECORDS_BYTES:
            with contextlib.suppress(OSError):
                path.unlink()


def child_log() -> int | None:
    """A file (already unlinked, opened to append) the forked workers write their events to."""
    import tempfile  # noqa: PLC0415 - only when a build is recorded

    try:
        import fcntl  # noqa: PLC0415 - POSIX: recording needs fork anyway

        fd, name = tempfile.mkstemp(prefix="printdeck-record-")
    except (OSError, ImportError):
        return None
    try:
        os.unlink(name)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
    except OSError:
        os.close(fd)
        return None
    return fd
