"""The theme folder the studio edits: ``theme.yaml`` read once, written atomically after
every change, the artwork beside it. ``printdeck build FOLDER`` reads the same file.

A folder the studio makes is 0700 and every file it writes 0600 (family photos are for
the user alone); an existing folder's modes are left as they are, with a note when other
users can read it. A write that fails (the folder moved or its disk unplugged, a full
disk, a read-only one) ends in :class:`Unwritable`: one line, and nothing half-kept.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

import printdeck
from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import WriteError, atomic_output, read_user_file

THEME_FILE = "theme.yaml"
REFUSED_FILE = "studio-refused.json"
"""Beside ``theme.yaml``: the files and words printdeck refused, still shown after a restart."""
MAX_REFUSED_BYTES = 1_000_000
STUDIO_MARK = "# Made with printdeck studio"
HEADER = STUDIO_MARK + ". Build it with: printdeck build {folder}\n"
MAX_THEME_BYTES = 5_000_000
FOLDER_MODE = 0o700
FILE_MODE = 0o600
KEY_ORDER = ("name", "title", "author", "seed", "deck", "card", "layout", "paper", "backs", "extras", "text", "symbols")


class Unwritable(PrintdeckError):
    """The theme folder cannot be written (gone, full, read-only, not allowed): nothing
    of the change was kept."""


def unwritable(folder: Path, exc: OSError | WriteError) -> Unwritable:
    """The one line for a write into the theme ``folder`` that failed with ``exc``."""
    code = exc.errno
    if code == errno.ENOENT or not folder.is_dir():
        return Unwritable(
            f"{shown(folder)}: the theme folder is gone (moved, renamed or its disk unplugged?); nothing was "
            "saved; put it back, or stop the studio and start it on the folder where it is now"
        )
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return Unwritable(f"{shown(folder)}: the disk is full (or over quota); nothing was saved; free some space")
    if code == errno.EROFS:
        return Unwritable(f"{shown(folder)}: is on a read-only disk; nothing was saved; copy the folder elsewhere")
    if code in (errno.EACCES, errno.EPERM):
        return Unwritable(f"{shown(folder)}: this user may not write there; nothing was saved; check its permissions")
    reason = os.strerror(code) if code else str(exc)
    return Unwritable(f"{shown(folder)}: cannot write there ({reason}); nothing was saved")


def make_folder(folder: Path, root: Path) -> None:
    """Make ``folder`` (0700) if it is missing; ``root``: the theme folder, for messages.

    Raises:
        Unwritable: It cannot be made.
    """
    try:
        folder.mkdir(mode=FOLDER_MODE, exist_ok=True)
    except OSError as exc:
        raise unwritable(root, exc) from None


def privacy_note(folder: Path) -> str | None:
    """A note when other users of the computer can read ``folder`` (``None`` when not)."""
    try:
        mode = stat.S_IMODE(folder.stat().st_mode)
    except OSError:
        return None
    if not mode & 0o044:
        return None
    return (
        f"note: other users of this computer can read {shown(folder)} (mode {mode:04o}); "
        f"`chmod 700 {_quoted(folder)}` keeps its pictures to you"
    )


def default_folder(parent: Path) -> Path:
    """A new folder for a deck under ``parent``: ``my-deck``, ``my-deck-2``, ..."""
    for n in range(1, 10_000):
        candidate = parent / ("my-deck" if n == 1 else f"my-deck-{n}")
        if not candidate.exists():
            return candidate
    raise PrintdeckError(f"{shown(parent)}: too many my-deck folders; give the folder to use")


def new_theme(folder: Path) -> dict[str, Any]:
    """The keys of a new theme: a name, a title (both from the folder's name), seed 1
    and no symbols yet."""
    return {"name": printdeck.deck_name(folder), "title": printdeck.deck_title(folder), "seed": 1, "symbols": []}


_LINK_FIELDS = ("code", "repeats_key", "repeats_file")
"""A refused tile's link to the symbol it copies, kept for the next start: the refusal's
code and that symbol's pictures and words (``repeats_key``, JSON; ``repeats_file``: the
file an older studio kept; its uid is this run's; see ``Workspace.open``)."""


def read_refused(folder: Path) -> list[dict[str, Any]]:
    """The refused files and words kept in ``folder/studio-refused.json``: ``{"file",
    "error", "words", "drop", "code", "repeats_key", "repeats_file"}`` each (see :func:`write_refused`;
    none if the file is missing, unreadable or not such a list)."""
    try:
        with (folder / REFUSED_FILE).open("rb") as handle:
            data = json.loads(handle.read(MAX_REFUSED_BYTES + 1))
    except (OSError, ValueError, RecursionError):  # a spoilt file: no tiles, the deck still opens
        return []
    if not isinstance(data, list):
        return []
    fields = ("file", "error")
    return [
        {
            "file": r["file"],
            "error": r["error"],
            "words": r["words"] if isinstance(r.get("words"), str) else r["error"],
            **{k: r.get(k) if isinstance(r.get(k), str) else None for k in ("drop", *_LINK_FIELDS)},
        }
        for r in data
        if isinstance(r, dict) and all(isinstance(r.get(k), str) for k in fields)
    ]


def write_refused(folder: Path, refused: list[dict[str, Any]]) -> None:
    """Keep the refused tiles in ``folder/studio-refused.json`` (atomically, 0600; removed
    when nothing is refused); a failed write is let go (the tiles are still shown until
    the studio stops). Each keeps ``file``, ``error``, ``words``, ``drop`` and, where it has
    them, :data:`_LINK_FIELDS`."""
    kept = ("words", "drop", *_LINK_FIELDS)
    tiles = [{"file": r["file"], "error": r["error"], **{k: r.get(k) for k in kept}} for r in refused]
    if not tiles:  # no file for nothing refused
        with contextlib.suppress(OSError):
            (folder / REFUSED_FILE).unlink(missing_ok=True)
        return
    try:
        with atomic_output(folder / REFUSED_FILE, mode=FILE_MODE) as tmp:
            tmp.write_text(json.dumps(tiles, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    except (WriteError, OSError):
        pass


def read_theme(folder: Path) -> dict[str, Any]:
    """Open ``folder/theme.yaml`` as a mapping (a new theme if there is none; the
    folder is created).

    Raises:
        PrintdeckError: The folder cannot be created, or ``theme.yaml`` cannot be read
            as a theme's mapping (one line, as ``printdeck check`` says it): the studio
            will not write over a file it could not read.
    """
    try:
        if not folder.exists():
            folder.parent.mkdir(parents=True, exist_ok=True)
            folder.mkdir(mode=FOLDER_MODE)
    except OSError as exc:
        raise PrintdeckError(f"{shown(folder)}: cannot create the folder ({exc.strerror}); choose another") from None
    if not folder.is_dir():
        raise PrintdeckError(f"{shown(folder)}: is not a folder; give a theme folder to open or create")
    path = folder / THEME_FILE
    if not path.exists():
        return new_theme(folder)
    data = _parsed(path)
    if not isinstance(data, dict):
        printdeck.load_theme(path, check_files=False)  # raises the command line's words
        raise PrintdeckError(f"{shown(path)}: is not a theme's mapping of keys; fix it or choose another folder")
    data.setdefault("symbols", [])
    if not isinstance(data["symbols"], list):
        raise PrintdeckError(f"{shown(path)}: symbols: expected a list; fix it or choose another folder")
    return data


def _parsed(path: Path) -> object:
    """The YAML of a theme file, after printdeck's own reader accepted its syntax."""
    try:
        printdeck.load_theme(path, check_files=False)
    except PrintdeckError as exc:
        if exc.key is None:  # the file itself is broken, not one key
            raise
    text = read_user_file(path, THEME_FILE, MAX_THEME_BYTES, "a theme file").decode("utf-8-sig")
    return printdeck.load_yaml_text(text, shown(path))  # as the build reads it: "3:4" stays text


def theme_text(doc: dict[str, Any], folder: Path) -> str:
    """The ``theme.yaml`` the studio writes for ``doc`` (keys in the usual order)."""
    ordered = {k: doc[k] for k in KEY_ORDER if k in doc}
    ordered.update({k: v for k, v in doc.items() if k not in ordered})
    body = str(yaml.safe_dump(ordered, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100))
    return HEADER.format(folder=_quoted(folder)) + body


def _quoted(folder: Path) -> str:
    text = str(folder)
    return f'"{text}"' if re.search(r"[^\w./~-]", text) else text


def write_theme(folder: Path, doc: dict[str, Any], last_text: str | None) -> str:
    """Write ``folder/theme.yaml`` for ``doc`` atomically (never half-written) and return
    its text; as :func:`write_text`.

    Raises:
        Unwritable: The folder cannot be written (gone, full, read-only).
    """
    return write_text(folder, theme_text(doc, folder.resolve()), last_text)


def write_text(folder: Path, text: str, last_text: str | None) -> str:
    """Write ``text`` as ``folder/theme.yaml`` atomically (never half-written); return it.

    A ``theme.yaml`` the studio did not write is first kept as ``theme.before-studio.yaml``,
    and one changed by something else since the studio last wrote or read it
    (``last_text``) as ``theme.edited-outside.yaml`` (``-2``, ``-3``... when taken; not
    again when such a copy already holds the same text).

    Raises:
        Unwritable: The folder cannot be written (gone, full, read-only).
    """
    path = folder / THEME_FILE
    current = _text_of(path)
    try:
        if current is not None and current != text and (not current.startswith(STUDIO_MARK) or current != last_text):
            base = "theme.before-studio" if not current.startswith(STUDIO_MARK) else "theme.edited-outside"
            if not _kept_already(folder, base, current):
                with atomic_output(_free(folder, base), mode=FILE_MODE) as tmp:
                    tmp.write_text(current, encoding="utf-8")
        with atomic_output(path, mode=FILE_MODE) as tmp:
            tmp.write_text(text, encoding="utf-8")
    except WriteError as exc:
        raise unwritable(folder, exc) from None
    except OSError as exc:
        raise unwritable(folder, exc) from None
    return text


def _kept_already(folder: Path, base: str, text: str) -> bool:
    """Whether a ``base.yaml`` (or ``base-N.yaml``) copy in ``folder`` holds ``text``."""
    return any(_text_of(copy) == text for copy in folder.glob(f"{base}*.yaml"))


def _text_of(path: Path) -> str | None:
    """The text of ``path`` (``None`` if it is missing or unreadable as UTF-8 text)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _free(folder: Path, base: str) -> Path:
    """``folder/base.yaml``, or ``base-2.yaml``... whichever does not exist yet."""
    for n in range(1, 10_000):
        path = folder / (f"{base}.yaml" if n == 1 else f"{base}-{n}.yaml")
        if not path.exists():
            return path
    raise PrintdeckError(f"{shown(folder)}: too many {base} files; remove some")


def current_text(folder: Path) -> str | None:
    """The text of ``folder/theme.yaml`` as it is now (``None`` if there is none)."""
    return _text_of(folder / THEME_FILE)
