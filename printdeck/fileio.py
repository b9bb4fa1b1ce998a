"""Writing outputs safely (reading the user's files is :mod:`printdeck.userfiles`'s, and
naming the temporary files and removing those a killed build left is
:mod:`printdeck.temp_names`'s; their names are re-exported here for the modules that import
them from this one).

Outputs are written to a temporary file beside the output
(``.<name>.<pid>.<random>.tmp``, same file system) and renamed over it only on
success (:func:`atomic_output`, :func:`atomic_outputs`), so an output is never
half-written and a failed build leaves the old one in place. Every temporary file
and staging folder is recorded before it exists and removed on any error, and on
Ctrl-C, SIGTERM or SIGHUP (see :mod:`printdeck.signals`); the temporary files of a
build that was killed outright (SIGKILL, power cut) are removed by the next build
writing the same output, once they are :data:`STALE_AFTER_S` old and their process
is gone.
Errors name the real output, never the hidden temporary file.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import secrets
import shutil
import stat
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from printdeck.errors import PrintdeckError, path_error, shown
from printdeck.file_locks import folder_lock
from printdeck.signals import deferred, on_stop, stopped_by
from printdeck.temp_names import (
    MAX_NAME_BYTES as MAX_NAME_BYTES,
    STALE_AFTER_S as STALE_AFTER_S,
    cut_to_bytes as cut_to_bytes,
    remove_stale_temps as remove_stale_temps,
    temp_name_prefix,
)
from printdeck.userfiles import (
    _kind,
    check_not_inputs as check_not_inputs,
    read_limited as read_limited,
    read_user_file as read_user_file,
    real_path as real_path,
    same_file as same_file,
    user_file_size as user_file_size,
)

_ACTIVE: dict[Path, Path] = {}
"""Temporary files being written in this process -> the output each becomes."""
_FOLDERS: set[Path] = set()
"""Staging folders being written in this process."""
_COMMITTED: list[Path] = []
"""Outputs this process has written (replaced), in order."""


class WriteError(PrintdeckError):
    """An output that cannot be written; ``path`` (the real output, never the temporary
    file) and ``errno`` (what the operating system said: ``ENOSPC``, ``EROFS``,
    ``ENOENT`` for a folder that is gone...) let a caller word it for its own users."""

    def __init__(self, message: str, path: Path, errno_code: int | None) -> None:
        super().__init__(message, source=shown(path))
        self.path = path
        self.errno = errno_code


def disk_full(exc: OSError) -> bool:
    """Whether ``exc`` says the disk is full or the user is over quota."""
    return exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


def write_error(path: Path, exc: OSError) -> WriteError:
    """The one-line error for an output that cannot be written (a full disk named as such).

    Args:
        path: The real output (never the temporary file).
        exc: What the operating system said.
    """
    if disk_full(exc):
        return WriteError(
            f"{shown(path)}: cannot write it: the disk is full (or over quota); "
            "free some space or choose another output path",
            path,
            exc.errno,
        )
    reason = exc.strerror or type(exc).__name__
    return WriteError(f"{shown(path)}: cannot write there ({reason}); choose another output path", path, exc.errno)


def _folder_of(path: Path) -> Path:
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise WriteError(
            f"{shown(path)}: folder {shown(folder)} does not exist; create it or choose another output path",
            path,
            errno.ENOENT,
        )
    return folder


def note_written(output: Path) -> None:
    """Record that ``output`` (a file or a folder of files) was written whole."""
    _COMMITTED.append(output)


def written() -> list[Path]:
    """The outputs this process has written so far (see :func:`note_written`)."""
    return list(_COMMITTED)


def remove_temporaries() -> None:
    """Remove every temporary file and staging folder this process is writing (the
    signal handler calls this, in the main process and in a worker a SIGTERM stops;
    never raises)."""
    for tmp in list(_ACTIVE):
        with contextlib.suppress(OSError):
            tmp.unlink()
    for folder in list(_FOLDERS):
        shutil.rmtree(folder, ignore_errors=True)


def _forget_the_parents() -> None:
    """In a forked worker: the temporary files being written are its parent's, to commit
    or remove; the worker's own records start empty."""
    _ACTIVE.clear()
    _FOLDERS.clear()
    _COMMITTED.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_the_parents)


on_stop(remove_temporaries)  # a signal removes them before the stack unwinds
atexit.register(remove_temporaries)  # and what threads still wrote meanwhile, once they are joined


def _fresh_name(folder: Path, name: str) -> Path:
    """A new temporary name ``.<name>.<pid>.<random>.tmp`` in ``folder`` (not created)."""
    return folder / f"{temp_name_prefix(name)}{secrets.token_hex(4)}.tmp"


def create_temp_file(folder: Path, name: str, output: Path, mode: int = 0o666) -> Path:
    """Create an empty temporary file for ``output`` in ``folder``, recorded (before it
    exists) for removal by :func:`remove_temporaries`; ``mode``: its permissions (less
    the umask; 0o600 for a file only its user may read, from the start).

    Raises:
        OSError: It cannot be created.
    """
    if stopped_by() is not None:  # another thread's signal stopped the build: nothing more is begun
        raise OSError(errno.ECANCELED, "printdeck is stopping", str(folder))
    for _ in range(100):
        tmp = _fresh_name(folder, name)
        try:
            with deferred():
                _ACTIVE[tmp] = output
                try:
                    os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), mode))
                except FileExistsError:
                    _ACTIVE.pop(tmp, None)
                    continue
        except BaseException:  # it could not be made, or a signal held back above takes effect here
            if _ACTIVE.pop(tmp, None) is not None:
                with contextlib.suppress(OSError):
                    tmp.unlink()  # never another's: O_EXCL made it ours, or it was not made
            raise
        return tmp
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def forget_temp(tmp: Path) -> None:
    """Stop tracking a temporary file (renamed into place, or removed)."""
    _ACTIVE.pop(tmp, None)


@contextlib.contextmanager
def staging_folder(beside: Path) -> Iterator[Path]:
    """A new folder ``.<name>.<pid>.<random>.tmp`` beside ``beside``, removed at the end
    (and by :func:`remove_temporaries` on a signal).

    Raises:
        OSError: It cannot be created.
    """
    folder = beside.parent if str(beside.parent) else Path(".")
    for _ in range(100):
        staging = _fresh_name(folder, beside.name)
        with deferred():
            _FOLDERS.add(staging)
            try:
                staging.mkdir()
                break
            except FileExistsError:
                _FOLDERS.discard(staging)
            except OSError:
                _FOLDERS.discard(staging)
                raise
    else:
        raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        _FOLDERS.discard(staging)


@contextlib.contextmanager
def tracked_folder(folder: Path) -> Iterator[None]:
    """Count ``folder`` as temporary (removed on a signal) while the body runs."""
    _FOLDERS.add(folder)
    try:
        yield
    finally:
        _FOLDERS.discard(folder)


def check_replaceable(path: Path, argument: str = "out") -> None:
    """Refuse an output that is a symbolic link (``/dev/stdout``...), exists but is not a
    regular file (a folder, a device, a pipe): renaming over it would replace the link or
    the special file itself; or is a file its owner made read-only (renaming over it would
    replace it, writable again).

    Raises:
        PrintdeckError: keyed to ``argument`` (the argument that named the path), with the
            path as its source.
    """
    if path.is_symlink():
        raise path_error(argument, path, "is a symbolic link", "give the path of a real file to write")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # missing (or a dangling link): a new file is made
    if not stat.S_ISREG(mode):
        raise path_error(argument, path, f"is {_kind(mode)}, not a regular file", "choose another output path")
    if not os.access(path, os.W_OK) and not _on_read_only_disk(path):  # locked by its owner: a rename would unlock it
        raise path_error(argument, path, "is write-protected", "make it writable to replace it, or choose another path")


def _on_read_only_disk(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only (its write then fails as any
    write there does, and is said so), not a file its owner made read-only."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _new_temp(path: Path, mode: int = 0o666) -> Path:
    """Create an empty temporary file beside ``path`` (permissions ``mode`` less the
    umask), recorded for removal before it exists."""
    check_replaceable(path)
    folder = _folder_of(path)
    remove_stale_temps(folder, path.name)
    try:
        return create_temp_file(folder, path.name, path, mode)
    except OSError as exc:
        raise write_error(path, exc) from None


def _named_right(exc: PrintdeckError, temps: Sequence[Path]) -> PrintdeckError:
    """``exc`` with any temporary file's name replaced by its output's."""
    text = str(exc)
    for tmp in temps:
        for spelled in {str(tmp), shown(tmp)}:
            text = text.replace(spelled, shown(_ACTIVE.get(tmp, tmp)))
    return exc if text == str(exc) else exc.reworded(text)


def _commit(outs: Sequence[Path], temps: Sequence[Path], stale: Sequence[Path]) -> None:
    """Rename each temporary file over its output (all renamed, or, on a signal, none: the
    caller defers signals), then remove the ``stale`` files (those that are gone, or
    cannot be removed, are left as they are).

    Raises:
        OSError: A rename failed.
    """
    for out, tmp in zip(outs, temps):
        if tmp != out:
            os.replace(tmp, out)
            note_written(out)
    for path in stale:
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def atomic_outputs(
    paths: Sequence[Path],
    lock: bool = True,
    mode: int = 0o666,
    replaced: Callable[[], Sequence[Path]] | None = None,
) -> Iterator[list[Path]]:
    """Yield one temporary path beside each of ``paths``; on success rename them all
    over their outputs, under a lock on the first output's folder (so outputs
    written together, a PDF and its manifest, come from the same build even when
    two builds write them at once), and remove the earlier outputs ``replaced`` names.

    If the body raises (or a signal interrupts it), every temporary file is
    removed and the outputs are left as they were. A path that is itself a
    temporary file of an enclosing :func:`atomic_output` is used as it is.

    Args:
        paths: The final output files.
        lock: Take the folder lock to commit (False when the caller holds it).
        mode: Permissions of the new files, less the umask (0o600: only the user reads them).
        replaced: Called under the lock just before the renames: the files of an earlier
            build that these outputs replace, removed right after the renames (a signal
            waits for both; one that cannot be removed is left). Must not raise.

    Yields:
        The temporary files, in the order of ``paths``.

    Raises:
        PrintdeckError: A folder does not exist, or an output cannot be written (a
            full disk says so); the message names the output, never the temporary file.
    """
    outs = [Path(p) for p in paths]
    temps: list[Path] = []
    try:
        for out in outs:
            temps.append(out if out in _ACTIVE else _new_temp(out, mode))
        yield temps
        if temps == outs:  # all nested: the enclosing atomic_outputs commits
            return
        with folder_lock(_folder_of(outs[0])) if lock else contextlib.nullcontext(), deferred():
            _commit(outs, temps, replaced() if replaced is not None else ())
    except OSError as exc:
        named = [t for t in temps if getattr(exc, "filename", None) == str(t)] or outs[:1]
        raise write_error(_ACTIVE.get(named[0], named[0]), exc) from None
    except WriteError:
        raise
    except PrintdeckError as exc:
        raise _named_right(exc, temps) from None
    finally:  # every temporary file of these outputs, even one made as a signal came
        for tmp in [t for t, out in _ACTIVE.items() if out in outs and t not in outs]:
            forget_temp(tmp)
            with contextlib.suppress(OSError):
                tmp.unlink()


@contextlib.contextmanager
def atomic_output(path: Path, lock: bool = True, mode: int = 0o666) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it over ``path``.

    If the body raises, the temporary file is removed and ``path`` is left as it was
    (never half-written, never clobbered). See :func:`atomic_outputs`.

    Args:
        path: The final output file.
        lock: Take the folder lock to commit (False when the caller holds it).
        mode: Permissions of the new file, less the umask.

    Raises:
        PrintdeckError: The folder does not exist or cannot be written (the message
            names ``path``; a full disk says so).
    """
    with atomic_outputs([path], lock, mode) as temps:
        yield temps[0]
