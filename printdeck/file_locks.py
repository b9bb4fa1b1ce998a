"""Advisory file locks that a forked process lets go of (POSIX ``flock``; none elsewhere).

:func:`folder_lock` keeps two builds from committing outputs into one folder at once;
:func:`flocked` is the lock itself, also under :func:`printdeck.cache_claims.claimed`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

__all__ = ["flocked", "folder_lock"]


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold an advisory lock on ``folder`` (POSIX ``flock``; none elsewhere), so two
    builds committing outputs into the same folder do it one after the other."""
    with flocked(folder):
        yield


@contextlib.contextmanager
def flocked(path: Path, flags: int = os.O_RDONLY) -> Iterator[int | None]:
    """Hold an exclusive POSIX advisory lock (``flock``) on ``path`` opened with ``flags``
    (``os.open``'s; made ``0o600`` with ``O_CREAT``), waiting for any other holder; give
    its descriptor, closed (the lock released) when the block ends. ``None`` and nothing
    held where there is no ``fcntl`` (Windows) or ``path`` cannot be opened.

    A process forked while a thread holds such a lock (a layout forks its workers whatever
    other threads do) closes its copy of the descriptor at once: an ``flock`` belongs to
    the open file, so the copy would keep the lock held after the thread's block ended,
    and a child asking for it would wait for itself forever."""
    try:
        import fcntl  # noqa: PLC0415 - POSIX only

        fd = os.open(path, flags, 0o600)
    except (ImportError, OSError):
        yield None
        return
    _FLOCKED.add(fd)
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        if fd in _FLOCKED:  # else closed already: this process forked inside the block (its copy)
            _FLOCKED.discard(fd)
            os.close(fd)  # closing releases the lock


_FLOCKED: set[int] = set()
"""The descriptors :func:`flocked` holds now, in any thread of this process."""


def _let_go_of_inherited_locks() -> None:
    """In a child just forked: close the copies of the locks' descriptors (see :func:`flocked`)."""
    for fd in list(_FLOCKED):
        with contextlib.suppress(OSError):
            os.close(fd)
    _FLOCKED.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_let_go_of_inherited_locks)
