"""One process at a time works out a costly cache entry (issue 29: no work twice).

A cold photo deck frames its photos on the photo workers while the look-alike check,
in a process of its own, frames any photo it reaches first: both looked for the same
photo's faces when they reached it together (4 to 6 of 57 photos a build, each 0.2-0.3
CPU-seconds of Haar cascades). :func:`claimed` makes the second wait for the first's
entry and read it instead.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from printdeck.file_locks import flocked

__all__ = ["claimed"]

_HELD = threading.local()  # .keys: the claims this thread holds (a claim made again inside one passes)


@contextlib.contextmanager
def claimed(folder: Path | None, key: str) -> Iterator[None]:
    """Hold an exclusive claim on the cache entry ``key`` of ``folder`` while the caller
    works it out: another process or thread claiming the same entry waits until this one
    ends, then finds the entry written (the caller reads the cache again once it holds
    the claim). The claim is a POSIX advisory lock (``flock``) on ``folder/key.lock``, an
    empty file removed when the block ends; it ends with its process too.

    Nothing is held (the block runs at once) where there is no cache folder (``None``),
    no ``fcntl`` (Windows) or the lock file cannot be opened: the work may then be done
    twice, as before, never wrongly. A claim made again inside one the same thread holds
    passes at once.

    Args:
        folder: The cache folder the entry is kept in (:func:`printdeck.cache.cache_dir`).
        key: The entry's key (a file name's stem: no separators).
    """
    held: set[tuple[str, str]] = _HELD.__dict__.setdefault("keys", set())
    mine = (str(folder), key)
    if folder is None or mine in held:
        yield
        return
    path = folder / f"{key}.lock"
    with flocked(path, os.O_RDWR | os.O_CREAT) as fd:
        held.add(mine)
        try:
            yield
        finally:
            held.discard(mine)
            if fd is not None:
                _remove_own(path, fd)


def _remove_own(path: Path, fd: int) -> None:
    """Remove the lock file ``path`` if it is still the one open as ``fd`` (nothing is left
    in the cache). A claim waiting on it then finds the entry written; one made after
    opens a new file, finds the entry before it claims, or (the work failed) does it."""
    with contextlib.suppress(OSError):
        if os.stat(path).st_ino == os.fstat(fd).st_ino:
            os.unlink(path)
