"""Reading a user's files with bounded work, and comparing paths (outputs against inputs).

Inputs are read by :func:`read_user_file`: only a regular file, at most a given
size, opened without blocking (a FIFO, ``/dev/zero``, a device or a folder is
refused at once with one line naming it). :func:`check_not_inputs` refuses an output
that is one of the inputs (the same file by any name). Writing outputs is
:mod:`printdeck.fileio`'s.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from printdeck.errors import PrintdeckError, key_error, key_of, path_error, shown

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


_SIGNATURES = (
    (b"%PDF-", "a PDF"),
    (b"\x89PNG\r\n\x1a\n", "a PNG picture"),
    (b"\xff\xd8\xff", "a JPEG picture"),
    (b"PK\x03\x04", "a zip file (a Word or LibreOffice document is one)"),
)
"""The first bytes of the files a user gives by mistake where a text file is wanted, and
what each is in words."""


def binary_kind(data: bytes) -> str | None:
    """What ``data`` is, in words (``"a PDF"``), when it starts as a PDF, a picture or a
    zip file does (:data:`_SIGNATURES`); None for anything else (text included).

    Examples:
        >>> binary_kind(b"%PDF-1.4 ..."), binary_kind(b"name: deck")
        ('a PDF', None)
    """
    return next((word for start, word in _SIGNATURES if data.startswith(start)), None)


def _kind(mode: int) -> str:
    """What a non-regular file is, in words (``"a pipe (FIFO)"``, ``"a device"``...)."""
    return next((word for test, word in _KINDS if test(mode)), "not a regular file")


def _prefix(where: str) -> str:
    return f"{where}: " if where else ""


def _refused(path: Path, where: str, problem: str, fix: str, *, joined: str = " ") -> PrintdeckError:
    """The error for a file a user named: the message ``"<where>: <file><joined><problem>;
    <fix>"`` with the fields kept for a front end: ``key`` the theme key or option
    ``where`` named (``symbols.3.image``, ``--words``; the file in brackets dropped),
    ``source`` the file."""
    key = key_of(where)
    return PrintdeckError(
        f"{_prefix(where)}{shown(path)}{joined}{problem}; {fix}",
        source=shown(path),
        key=key,
        problem=problem,
        fix=fix,
        is_argument=bool(key and key.startswith("-")),
    )


def read_user_file(path: Path, where: str, limit: int, what: str = "the file") -> bytes:
    """Read a file a user named, at most ``limit`` bytes, never blocking.

    The file is opened non-blocking and checked with ``fstat`` on the open handle
    (no race with a swapped name): it must be a regular file of at most ``limit``
    bytes. Reading stops after ``limit + 1`` bytes, whatever the file claims.

    Args:
        path: The file.
        where: The option or theme key that named it (``"--words"``,
            ``"symbols.3.image"``), put first in messages; ``""`` for none.
        limit: Largest size accepted, bytes.
        what: What the file is, for messages (``"the theme"``).

    Returns:
        The file's bytes (possibly empty).

    Raises:
        PrintdeckError: Missing, a folder, a FIFO, a device, a socket, unreadable,
            or larger than ``limit``; one line naming ``where`` and the file.
    """
    fd, _ = _open_checked(path, where, limit, what)
    try:
        data = _read_up_to(fd, limit + 1)
    except OSError as exc:
        raise _refused(
            path, where, f"cannot read {what} ({exc.strerror or exc})", "check the file", joined=": "
        ) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _refused(path, where, f"is larger than the {limit:,} bytes allowed", f"is it really {what}?")
    return data


def read_limited(path: Path, where: str, limit: int) -> bytes:
    """The bytes of a regular, non-empty file of at most ``limit`` bytes
    (:func:`read_user_file`, which never blocks on a pipe or device): an artwork file.

    Raises:
        PrintdeckError: Missing, not a regular file, unreadable, empty or too large.
    """
    data = read_user_file(path, where, limit, "an image")
    if not data:
        raise key_error(f"{where}", f"{shown(path)} is empty (0 bytes); replace it with a real image")
    return data


def user_file_size(path: Path, where: str, limit: int, what: str = "the file") -> int:
    """The size, bytes, of a file a user named, checked as :func:`read_user_file` checks it
    but not read: for a file a library reads itself (a font) or that is read later.

    Raises:
        PrintdeckError: As :func:`read_user_file`: missing, a folder, a FIFO, a device, a
            socket, unreadable, or larger than ``limit``.
    """
    fd, size = _open_checked(path, where, limit, what)
    os.close(fd)
    return size


def _open_checked(path: Path, where: str, limit: int, what: str) -> tuple[int, int]:
    """Open ``path`` non-blocking and check on the open handle (no race with a swapped name)
    that it is a regular file of at most ``limit`` bytes. Returns the descriptor (the caller
    closes it) and the size; errors are keyed to ``where`` (see :func:`_refused`)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise _refused(path, where, "not found", "check the path") from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise _refused(
            path, where, f"cannot read {what} ({reason})", "check the path and its permissions", joined=": "
        ) from None
    try:
        mode = os.fstat(fd)
        if not stat.S_ISREG(mode.st_mode):
            raise _refused(path, where, f"is {_kind(mode.st_mode)}, not a regular file", f"give {what} as a file")
        if mode.st_size > limit:
            raise _refused(
                path, where, f"is {mode.st_size:,} bytes, larger than the {limit:,} allowed", f"is it really {what}?"
            )
    except OSError as exc:
        os.close(fd)
        raise _refused(
            path, where, f"cannot read {what} ({exc.strerror or exc})", "check the file", joined=": "
        ) from None
    except PrintdeckError:
        os.close(fd)
        raise
    return fd, mode.st_size


def _read_up_to(fd: int, count: int) -> bytes:
    """Read until ``count`` bytes or the end of the file (reads may be short)."""
    parts: list[bytes] = []
    got = 0
    while got < count:
        chunk = os.read(fd, min(count - got, 1 << 20))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def real_path(path: Path) -> str:
    """``path`` with symlinks followed and made absolute (it need not exist)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (one real path, or one inode: a hard link)."""
    if real_path(a) == real_path(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def check_not_inputs(outputs: Sequence[tuple[str, Path]], inputs: Iterable[Path]) -> None:
    """Refuse any output that would land on an input.

    Args:
        outputs: (the argument that named it, e.g. ``"out"``, path) pairs; the error is
            keyed to that argument (see :func:`printdeck.errors.path_error`).
        inputs: The files the command reads.

    Raises:
        PrintdeckError: Naming the output, the input it would overwrite and the fix.
    """
    inputs = list(inputs)
    for label, out in outputs:
        for source in inputs:
            if same_file(out, source):
                raise path_error(
                    label,
                    out,
                    f"is an input of this build ({shown(source)}) and would be overwritten",
                    "choose another output name",
                )
