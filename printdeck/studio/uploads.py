"""Uploaded pictures: limits, safe file names inside the theme folder, picture or photo.

An uploaded file's name is only a hint: it is reduced to one plain file name (no folder,
no leading dot, no control character), given a known picture suffix, and written into
the theme folder's ``images/`` under a name no other file has (``cat.png``,
``cat-2.png``...), so nothing is ever overwritten and nothing lands outside the folder.
Names are cut by their UTF-8 bytes (a file system holds 255), room left for ``-99999``.
Files are written 0600 into folders made 0700 (see :mod:`printdeck.studio.theme_folder`).
"""

from __future__ import annotations

import errno
import re
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from printdeck.api import FONT_SUFFIXES as LIBRARY_FONT_SUFFIXES, PICTURE_SUFFIXES as LIBRARY_PICTURE_SUFFIXES
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import MAX_NAME_BYTES, WriteError, atomic_output, cut_to_bytes
from printdeck.studio.symbol_list import name_from_path
from printdeck.studio.theme_folder import FILE_MODE, make_folder, unwritable

PICTURES_FOLDER = "images"
MAX_FILE_BYTES = 80_000_000
"""Largest picture accepted (printdeck refuses larger rasters anyway)."""
MAX_FILES_PER_UPLOAD = 200
MAX_UPLOAD_BYTES = 200_000_000
"""Largest upload request (all its files together; the page sends big drops in batches)."""
MAX_SYMBOLS = 5000
"""A theme's most symbols (the theme model's limit)."""
PICTURE_SUFFIXES = set(LIBRARY_PICTURE_SUFFIXES)  # what the library reads: .png ... .svg
FONT_SUFFIXES = set(LIBRARY_FONT_SUFFIXES)  # what the library loads: .ttf, .otf, .ttc, .otc
VIDEO_SUFFIXES = frozenset({".mov", ".mp4", ".m4v", ".avi", ".webm", ".3gp", ".3g2", ".mkv", ".mts", ".m2ts", ".wmv"})
"""Videos a phone or camera makes (an iPhone's "live photo" is a .MOV beside its still):
refused as pictures in words that say it is a video and what to drop instead."""
_UNSAFE = re.compile(r"[^\w.-]+")
_MAX_STEM = 80
_MOST_NUMBER = "-99999"
"""The longest ``-N`` :func:`free_name` adds."""


@dataclass(frozen=True)
class Upload:
    """One uploaded file: the name the browser gave, its bytes (cut at
    :data:`MAX_FILE_BYTES` + 1 when larger) and its whole size, bytes."""

    filename: str
    data: bytes
    size: int = -1

    @property
    def size_bytes(self) -> int:
        """The file's whole size, bytes (``data`` may hold only its start)."""
        return max(self.size, len(self.data))


def too_large(upload: Upload, what: str) -> str | None:
    """The one line refusing ``upload`` as larger than :data:`MAX_FILE_BYTES` (``None``
    when it is not); both sizes are shown so they differ (81.0 MB, 80.0 MB)."""
    if upload.size_bytes <= MAX_FILE_BYTES:
        return None
    size, limit = upload.size_bytes, MAX_FILE_BYTES
    digits = 1 if size - limit >= 50_000 else 3 if size - limit >= 500 else 6
    return (
        f"{shown(upload.filename)}: {size / 1e6:.{digits}f} MB is larger than the {limit / 1e6:.{digits}f} MB "
        f"{what} may be; make it smaller"
    )


def spool_error(exc: OSError) -> str:
    """The one line for an upload the temporary folder (``TMPDIR``) could not hold."""
    folder = shown(tempfile.gettempdir())
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return (
            f"the upload does not fit in the temporary folder {folder}: its disk is full; nothing was added; "
            "free some space there (or start the studio with TMPDIR set to a folder with room) and drop the files again"
        )
    return f"the upload cannot be held in the temporary folder {folder} ({exc.strerror or exc}); nothing was added"


def safe_file_name(raw: str, suffixes: set[str], fallback: str = "picture") -> str:
    """Reduce an uploaded file's name to a plain name with one of ``suffixes``.

    Folders (``../../x.png``, ``C:\\x.png``) are dropped, characters other than letters,
    digits, ``-``, ``_`` and ``.`` become ``-``, leading dots go (no hidden files) and the
    stem is cut to 80 characters and to what leaves the whole name, with a ``-99999`` that
    :func:`free_name` may add, within :data:`~printdeck.fileio.MAX_NAME_BYTES` UTF-8 bytes.

    Args:
        raw: The name the browser sent.
        suffixes: Allowed suffixes, lower case with the dot.
        fallback: Stem used when nothing usable is left.

    Raises:
        PrintdeckError: The suffix is not one of ``suffixes`` (one line, in the words the
            command line uses for a picture it cannot read).
    """
    base = unicodedata.normalize("NFC", raw.replace("\\", "/").split("/")[-1])
    base = "".join(c for c in base if c.isprintable())
    stem, dot, suffix = base.rpartition(".")
    if not dot:
        stem, suffix = suffix, ""
    suffix = "." + suffix.lower() if suffix else ""
    if suffix not in suffixes:
        raise PrintdeckError(_unreadable(shown(base) or "the file", suffix, suffixes))
    room = MAX_NAME_BYTES - len(_MOST_NUMBER) - len(suffix.encode("utf-8"))
    clean = cut_to_bytes(_UNSAFE.sub("-", stem).strip("-.")[:_MAX_STEM], room).strip("-.")
    return f"{clean or fallback}{suffix}"


def _unreadable(name: str, suffix: str, suffixes: set[str]) -> str:
    """The line refusing file ``name`` of ``suffix`` where one of ``suffixes`` is wanted: a
    video, where pictures are, is called a video, with the still to drop instead."""
    if suffix in VIDEO_SUFFIXES and suffixes == PICTURE_SUFFIXES:
        return (
            f"{name} is a video, and the studio needs a still photo: take a screenshot of the moment you "
            "want (or pick the photo instead of the video) and drop that"
        )
    kinds = ", ".join(s[1:].upper() for s in sorted(suffixes))
    what = f"a {suffix} file" if suffix else "a file without a suffix"
    return f"{name}: is {what}, which printdeck cannot read; convert it to one of {kinds}"


def free_name(folder: Path, name: str, data: bytes, taken: set[str]) -> tuple[str, bool]:
    """A name in ``folder`` for ``data``: ``name``, or ``name`` with ``-2``, ``-3``... added.

    A name that would give its symbol the name another file there gives its own
    (``cat.jpg`` beside ``cat.png``, ``Cat.png``, ``my_cat.png`` beside ``my-cat.png``:
    :func:`~printdeck.studio.symbol_list.name_from_path`) is taken too: two symbols of one
    name are refused.

    A file already there with the very same bytes, that no symbol uses (``taken``), is
    used again rather than copied twice.

    Returns:
        (file name, whether that file already holds ``data``).
    """
    stem, suffix = name.rsplit(".", 1) if "." in name else (name, "")
    suffix = f".{suffix}" if suffix else ""
    named = _symbol_names(folder)
    for n in range(1, 100_000):
        candidate = name if n == 1 else f"{stem}-{n}{suffix}"
        path = folder / candidate
        if not path.exists() and not path.is_symlink() and name_from_path(candidate).casefold() not in named:
            return candidate, False
        if candidate not in taken and path.is_file() and not path.is_symlink() and _same_bytes(path, data):
            return candidate, True
    raise PrintdeckError(f"{shown(folder)}: too many files named like {shown(name)}; rename the file")


def _symbol_names(folder: Path) -> set[str]:
    """The names (case folded) the files in ``folder`` give their symbols (none if it is missing)."""
    try:
        return {name_from_path(p.name).casefold() for p in folder.iterdir()}
    except OSError:
        return set()


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def store(folder: Path, name: str, data: bytes) -> Path:
    """Write ``data`` as ``folder/name`` atomically, 0600 (``folder``, inside the theme
    folder, made 0700 if missing).

    Raises:
        Unwritable: The folder cannot be made or written (gone, full, read-only).
    """
    make_folder(folder, folder.parent)
    path = folder / name
    try:
        with atomic_output(path, mode=FILE_MODE) as tmp:
            tmp.write_bytes(data)
    except WriteError as exc:
        raise unwritable(folder.parent, exc) from None
    return path
