"""Where a build may write: never over one of its inputs, never a file it did not make.

Every output (the PDF, its manifest, the preview PNG, the card PNGs and their
folder) is checked before any work against every file the theme reads (the theme
file, each artwork, photo and font file, the backs image): an output that is an
input (same path after following symlinks, or the same file under another name)
is refused, and so is a PNG folder that holds any input (the theme's own folder,
say). The PNG folder keeps a record (:data:`printdeck.render.PNG_RECORD`) of the card files
printdeck wrote there; only those are ever replaced or removed. The files a build writes
beside the PDF are recorded in its manifest (:mod:`printdeck.output_record`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from printdeck.errors import path_error, shown
from printdeck.fileio import real_path
from printdeck.theme import SymbolEntry, Theme, resolve_path


def theme_inputs(theme: Theme) -> list[Path]:
    """Every file a build of ``theme`` reads: the theme file, artwork, photos, fonts (every
    face's of a symbol of several), backs image."""
    found = [theme.path] if theme.path is not None else []
    for face in (face for symbol in theme.symbols for face in symbol.all_faces):
        found += [p for p in (face.path, face.font_path) if p is not None]
    if theme.spec.backs.image is not None:
        found.append(resolve_path(theme.spec.backs.image, theme.base_dir, "backs.image")[0])
    return found


def picture_folders(theme: Theme) -> list[Path]:
    """The folders the theme reads every picture of (a ``folder:``, or an ``image:`` or
    ``photo:`` naming a folder, faces' too): a picture written into one is in the next build."""
    found: list[Path] = []
    entries: list[str | SymbolEntry] = list(theme.spec.symbols)
    while entries:
        entry = entries.pop()
        if isinstance(entry, SymbolEntry):
            entries += entry.faces or []
        for raw in (entry,) if isinstance(entry, str) else (entry.folder, entry.image, entry.photo):
            if raw is not None:
                path = resolve_path(raw, theme.base_dir)[0]
                if path.is_dir():
                    found.append(path)
    return found


def check_not_in_picture_folder(argument: str, out: Path, theme: Theme) -> None:
    """Refuse an output (a preview PNG, a deck's or the slides' PDF) in a folder the theme
    reads its pictures from (:func:`picture_folders`): the next build would print a picture
    on the cards as a symbol, and stop at a PDF, which no picture is.

    Raises:
        PrintdeckError: Keyed to ``argument``, naming the folder and the fix.
    """
    folder = real_path(out.parent if str(out.parent) else Path("."))
    for pictures in picture_folders(theme):
        if real_path(pictures) == folder:
            where = "the current folder" if str(out.parent) == "." else shown(out.parent)
            raise path_error(
                argument,
                out,
                f"is in {where}, whose pictures are the deck's symbols (the next build would take it for one)",
                "write it to another folder",
            )


def check_png_dir(png_dir: Path, theme: Theme, inputs: Iterable[Path]) -> None:
    """Refuse a PNG folder that is the theme's folder, holds any input, or holds card
    PNGs printdeck did not record writing (they would be overwritten).

    Raises:
        PrintdeckError: Naming the folder, the reason and the fix.
    """
    if png_dir.exists() and not png_dir.is_dir():
        raise path_error("png_dir", png_dir, "is a file, not a folder", "choose a folder name")
    folder = real_path(png_dir)
    if folder == real_path(theme.base_dir):
        raise path_error(
            "png_dir", png_dir, "is the theme's own folder", "choose another folder (e.g. a new folder 'pngs')"
        )
    for source in inputs:
        real = real_path(source)
        if real == folder or real.startswith(folder.rstrip(os.sep) + os.sep):
            raise path_error(
                "png_dir",
                png_dir,
                f"holds an input of this build ({shown(source)})",
                "choose a folder of its own for the PNGs",
            )
    if png_dir.is_dir():
        from printdeck.render import card_files, read_png_record  # noqa: PLC0415 - ReportLab only when rendering

        foreign = sorted(set(card_files(png_dir)) - read_png_record(png_dir))
        if foreign:
            raise path_error(
                "png_dir",
                png_dir,
                f"holds {shown(foreign[0])}, which printdeck did not write (it would be overwritten)",
                "move it away or choose an empty folder",
            )
