"""The names of the temporary files outputs are written to (``.<name>.<pid>.<random>.tmp``,
beside the output), and the removal of those a killed build left behind
(:func:`remove_stale_temps`). Writing through them is :mod:`printdeck.fileio`'s, which
re-exports these names.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import time
from pathlib import Path

from printdeck.audit import CLEANUP_EVENT

MAX_NAME_BYTES = 255
"""Longest file name, UTF-8 bytes, that common file systems (ext4, APFS, NTFS...) hold."""
TEMP_NAME_EXTRA_BYTES = 24
"""Bytes a temporary name adds to its output's (``.``, ``.<pid>.``, 8 hex digits, ``.tmp``)."""
STALE_AFTER_S = 600.0
"""Age (s, by modification time) after which a dead build's temporary file is removed."""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` may still run (unknown counts as alive)."""
    if pid == os.getpid():
        return True
    if os.name == "nt":  # os.kill(pid, 0) would send CTRL_C_EVENT there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, under another user
        return True
    return True


def _stale_owner_gone(name: str, prefix: str) -> bool:
    """For ``.<out>.<pid>.<random>.tmp``: whether the pid in the name is not running.
    Names without a pid (older printdeck) count as gone."""
    middle = name[len(prefix) : -len(".tmp")]
    pid, dot, _ = middle.partition(".")
    return not (dot and pid.isdigit() and _alive(int(pid)))


def _only_cards(folder: str) -> bool:
    """A PNG staging folder holds nothing but card PNGs (so it is ours to remove)."""
    try:
        with os.scandir(folder) as entries:
            return all(
                e.is_file(follow_symlinks=False) and e.name.startswith("card-") and e.name.endswith(".png")
                for e in entries
            )
    except OSError:
        return False


def remove_stale_temps(folder: Path, name: str, now: float | None = None) -> int:
    """Remove the temporary files (and PNG staging folders) a killed build left for ``name``.

    Only entries named ``.<name>.<pid>.<random>.tmp`` are considered, only when
    older than :data:`STALE_AFTER_S` and their process is not running; a staging
    folder only when it holds nothing but ``card-*.png`` files. Errors are ignored.

    Args:
        folder: The output's folder.
        name: The output's file (or PNG folder) name.
        now: The current time (s since the epoch), for tests.

    Returns:
        How many entries were removed.
    """
    prefix, now = f".{_temp_stem(name)}.", time.time() if now is None else now
    removed = 0
    sys.audit(CLEANUP_EVENT, str(folder))  # what the folder holds is no input of the build
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(prefix) and e.name.endswith(".tmp")]
    except OSError:
        return 0
    for entry in entries:
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if now - info.st_mtime < STALE_AFTER_S or not _stale_owner_gone(entry.name, prefix):
                continue
            if stat.S_ISREG(info.st_mode):
                os.unlink(entry.path)
                removed += 1
            elif stat.S_ISDIR(info.st_mode) and _only_cards(entry.path):
                shutil.rmtree(entry.path)
                removed += 1
    return removed


def cut_to_bytes(text: str, most_bytes: int) -> str:
    """``text`` cut to at most ``most_bytes`` UTF-8 bytes, never inside a character."""
    return text.encode("utf-8", "surrogateescape")[: max(most_bytes, 0)].decode("utf-8", "ignore")


def _temp_stem(name: str) -> str:
    """The output's name as its temporary files spell it: cut so that the whole temporary
    name stays within :data:`MAX_NAME_BYTES` (a 250-byte output name is fine; its
    temporary file must be too)."""
    return cut_to_bytes(name, MAX_NAME_BYTES - TEMP_NAME_EXTRA_BYTES)


def temp_name_prefix(name: str) -> str:
    """The prefix of this process's temporary files for the output ``name``."""
    return f".{_temp_stem(name)}.{os.getpid()}."
