"""Where a build may write: never over one of its inputs, never a file it did not make.

Every output (the PDF, its manifest, the preview PNG, the card PNGs and their
folder) is checked before any work against every file the theme reads (the theme
file, each artwork, photo and font file, the backs image): an output that is an
input (same path after following symlinks, or the same file under another name)
is refused, and so is a PNG folder that holds any input (the theme's own folder,
say). The PNG folder keeps a record (:data:`PNG_RECORD`) of the card files printdeck
wrote there; only those are ever replaced or removed.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from printdeck.errors import PrintdeckError, shown
from printdeck.fileio import atomic_output, read_user_file
from printdeck.theme.model import Theme
from printdeck.theme.symbols import resolve_path

PNG_RECORD = ".printdeck-pngs.json"
"""The file in a PNG folder listing the card PNGs printdeck wrote there."""
_CARD_NAME = re.compile(r"card-[0-9]{3,7}\.png")
_MAX_RECORD_BYTES = 2_000_000


def theme_inputs(theme: Theme) -> list[Path]:
    """Every file a build of ``theme`` reads: the theme file, artwork, photos, fonts, backs image."""
    found = [theme.path] if theme.path is not None else []
    for symbol in theme.symbols:
        found += [p for p in (symbol.path, symbol.font_path) if p is not None]
    if theme.spec.backs.image is not None:
        found.append(resolve_path(theme.spec.backs.image, theme.base_dir, "backs.image")[0])
    return found


def _real(path: Path) -> str:
    """``path`` with symlinks followed and made absolute (it need not exist)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (one real path, or one inode: a hard link)."""
    if _real(a) == _real(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def check_not_inputs(outputs: Sequence[tuple[str, Path]], inputs: Iterable[Path]) -> None:
    """Refuse any output that would land on an input.

    Args:
        outputs: (what it is, e.g. ``"-o"`` or ``"the manifest"``, path) pairs.
        inputs: The files the command reads.

    Raises:
        PrintdeckError: Naming the output, the input it would overwrite and the fix.
    """
    inputs = list(inputs)
    for label, out in outputs:
        for source in inputs:
            if _same_file(out, source):
                raise PrintdeckError(f"{label} {shown(out)}: is an input of this build ({shown(source)}) and would "
                                     "be overwritten; choose another output name")


def check_png_dir(png_dir: Path, theme: Theme, inputs: Iterable[Path]) -> None:
    """Refuse a PNG folder that is the theme's folder, holds any input, or holds card
    PNGs printdeck did not record writing (they would be overwritten).

    Raises:
        PrintdeckError: Naming the folder, the reason and the fix.
    """
    if png_dir.exists() and not png_dir.is_dir():
        raise PrintdeckError(f"--png-dir {shown(png_dir)}: is a file, not a folder; choose a folder name")
    folder = _real(png_dir)
    if folder == _real(theme.base_dir):
        raise PrintdeckError(f"--png-dir {shown(png_dir)}: is the theme's own folder; choose another folder "
                             "(e.g. a new folder 'pngs')")
    for source in inputs:
        real = _real(source)
        if real == folder or real.startswith(folder.rstrip(os.sep) + os.sep):
            raise PrintdeckError(f"--png-dir {shown(png_dir)}: holds an input of this build ({shown(source)}); "
                                 "choose a folder of its own for the PNGs")
    if png_dir.is_dir():
        foreign = sorted(set(_card_files(png_dir)) - read_png_record(png_dir))
        if foreign:
            raise PrintdeckError(f"--png-dir {shown(png_dir)}: holds {shown(foreign[0])}, which printdeck did not "
                                 "write (it would be overwritten); move it away or choose an empty folder")


def _card_files(folder: Path) -> list[str]:
    """Names of the ``card-NNN.png`` entries of ``folder``."""
    try:
        return [e.name for e in os.scandir(folder) if _CARD_NAME.fullmatch(e.name)]
    except OSError:
        return []


def read_png_record(folder: Path) -> set[str]:
    """The card PNG names an earlier build recorded writing into ``folder`` (empty
    when there is no record or it is not a record: only ``card-NNN.png`` names count)."""
    try:
        data = json.loads(read_user_file(folder / PNG_RECORD, "", _MAX_RECORD_BYTES).decode("utf-8"))
    except (PrintdeckError, ValueError, UnicodeError, RecursionError):
        return set()
    names = data.get("cards") if isinstance(data, dict) else None
    return {n for n in names if isinstance(n, str) and _CARD_NAME.fullmatch(n)} if isinstance(names, list) else set()


def write_png_record(folder: Path, names: Iterable[str]) -> None:
    """Record (atomically) that printdeck wrote ``names`` into ``folder`` (the caller
    holds :func:`printdeck.fileio.folder_lock` on it).

    Raises:
        PrintdeckError: The record cannot be written (naming the folder).
    """
    text = json.dumps({"written_by": "printdeck", "cards": sorted(set(names))}, indent=0) + "\n"
    with atomic_output(folder / PNG_RECORD, lock=False) as tmp:
        tmp.write_text(text, encoding="utf-8")
