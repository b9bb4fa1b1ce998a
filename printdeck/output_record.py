"""The record a build's manifest keeps of the files it wrote beside the PDF.

Besides the PDF and its manifest a build may write an extras PDF (``<stem>-extras.pdf``,
one card a page) and cut files (``<stem>-cut-NN.svg`` and ``.dxf``, ``paper.cut_files``).
The manifest lists their names under :data:`OUTPUTS_KEY`; the next build of the same PDF
(and a replay of one, :mod:`printdeck.rerun.replay`) removes those it does not write again
(:func:`stale_outputs`), as it commits its own, so a cutting machine is never given an old
deck's sheet. Nothing else is ever removed: not a name printdeck does not give such a file,
not a file the manifest does not list, not a symlink or a folder, never a build's input.
Nor is anything else replaced: a build refuses, before it writes, a manifest path holding a
file that is not a printdeck manifest (:func:`check_manifest_path`) and an extras PDF or cut
file path holding a file the earlier build's manifest does not list (:func:`check_others`:
a user's own ``deck-cut-01.svg`` beside a first build's PDF). A PDF or PNG another command
writes where it is told (``slides``, ``calibrate``, ``preview``, ``stats --plot``) is refused
the same way when a file printdeck did not write is there (:func:`check_pdf_path`,
:func:`check_png_path`).
No ReportLab, no theme: the replay imports this.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printdeck.errors import FOREIGN_OUTPUT, PrintdeckError, shown
from printdeck.userfiles import read_user_file, same_file

if TYPE_CHECKING:
    from PIL.PngImagePlugin import PngInfo

OUTPUTS_KEY = "outputs"
"""The manifest's key listing the other files the build wrote beside the PDF (names)."""
PNG_SOFTWARE_KEY = "Software"
"""The PNG text key naming the program that wrote the file."""
PNG_SOFTWARE = "printdeck"
"""What every PNG printdeck writes to a path it is given says under :data:`PNG_SOFTWARE_KEY`
(what :func:`check_png_path` looks for: the file is printdeck's to replace)."""
MAX_MANIFEST_BYTES = 64_000_000
"""An earlier manifest larger than this is not read for its outputs (none are removed)."""


def outputs_record(others: Sequence[Path]) -> dict[str, list[str]]:
    """What the manifest adds for ``others``, the files a build writes beside the PDF besides
    it and the manifest: ``{"outputs": [their names]}``, an empty list when there are none
    (a manifest without the key is an older printdeck's, which recorded none: see
    :func:`check_others`)."""
    return {OUTPUTS_KEY: [p.name for p in others]}


def own_output_name(pdf: Path, name: str) -> bool:
    """Whether ``name`` is a name printdeck gives a file beside the PDF ``pdf``:
    ``<stem>-extras.pdf``, or a cut file ``<stem>-cut-NN.svg`` / ``.dxf``."""
    stem = re.escape(pdf.stem)
    return re.fullmatch(rf"{stem}-extras\.pdf|{stem}-cut-[0-9]{{2,}}\.(svg|dxf)", name) is not None


def read_manifest(manifest_path: Path) -> dict[str, Any] | None:
    """The printdeck manifest at ``manifest_path`` (:func:`is_manifest`; a byte-order mark
    allowed, as an editor may save one), or None when the file is missing, unreadable, not
    JSON, over :data:`MAX_MANIFEST_BYTES` or not a manifest (a JSON theme, say). The one
    reader of a manifest for the build, its replay and ``printdeck answer``."""
    try:
        data = json.loads(read_user_file(manifest_path, "", MAX_MANIFEST_BYTES).decode("utf-8-sig"))
    except (PrintdeckError, ValueError, UnicodeError, RecursionError):
        return None
    return data if is_manifest(data) else None


def manifest_beside(pdf: Path) -> Path | None:
    """The build's manifest beside the PDF ``pdf`` (``<stem>.json``, :func:`read_manifest`),
    or None when no manifest is there: the file to give for the deck as printed."""
    manifest = pdf.with_suffix(".json")
    return manifest if _regular_file(manifest) and read_manifest(manifest) is not None else None


def is_manifest(data: object) -> bool:
    """Whether ``data`` has a printdeck manifest's shape (:mod:`printdeck.manifest`): an
    object with a ``"design"`` object and a ``"cards"`` list."""
    return isinstance(data, dict) and isinstance(data.get("design"), dict) and isinstance(data.get("cards"), list)


def recorded_outputs(manifest_path: Path) -> list[str]:
    """The names the manifest at ``manifest_path`` lists under :data:`OUTPUTS_KEY`; empty
    when it is no manifest (:func:`read_manifest`) or lists none."""
    return _names_in(read_manifest(manifest_path))


def _names_in(manifest: dict[str, Any] | None) -> list[str]:
    """The names a manifest (:func:`read_manifest`, None for none) lists under :data:`OUTPUTS_KEY`."""
    names = manifest.get(OUTPUTS_KEY) if manifest is not None else None
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def check_manifest_path(pdf: Path) -> None:
    """Refuse to build ``pdf`` when the file its manifest would replace (``<stem>.json``) is
    there and is not a printdeck manifest (a user's own JSON file of that name); with no
    manifest beside it, when a PDF is there that printdeck did not write
    (:func:`check_pdf_path`). The manifest is read once.

    Raises:
        PrintdeckError: Keyed to ``out``, naming the file and the fix.
    """
    manifest_path = pdf.with_suffix(".json")
    if not _regular_file(manifest_path):
        check_pdf_path(pdf)
    elif read_manifest(manifest_path) is None:
        raise _foreign(
            pdf,
            f"its manifest would replace {shown(manifest_path)}, which is not a printdeck manifest",
            "move that file away or choose another output name",
        )


def check_pdf_path(pdf: Path, argument: str = "out", option: str = "-o", older: tuple[str, ...] = ()) -> None:
    """Refuse to write ``pdf`` over a file there that printdeck did not write: one whose
    metadata does not name printdeck as its creator (a user's invitation named ``deck.pdf``,
    a note saved with that name). A build's PDF with its manifest beside it is printdeck's
    without a look (:func:`check_manifest_path`).

    Args:
        pdf: The PDF to write.
        argument: The argument that named it (the error's key).
        option: How the command line names that argument, for the fix.
        older: Creators an older printdeck's file of this kind names (its plots were
            Matplotlib's), taken as printdeck's too.

    Raises:
        PrintdeckError: Keyed to ``argument``, naming the file and the fix.
    """
    if not _regular_file(pdf) or _made_by_printdeck(pdf, older):
        return
    raise _not_ours(pdf, argument, option)


def check_not_a_deck(pdf: Path, what: str, argument: str = "out", option: str = "-o") -> None:
    """Refuse to write another kind of PDF (``what``: ``the slides``, ``the calibration``)
    over a deck printdeck built, its manifest beside it: the manifest would stay, and
    ``answer`` and ``verify`` would go on naming cards the file no longer holds.

    Raises:
        PrintdeckError: Keyed to ``argument``, naming the deck's manifest and the fix.
    """
    manifest = manifest_beside(pdf) if _regular_file(pdf) else None
    if manifest is not None:
        raise PrintdeckError(
            source=shown(pdf),
            key=argument,
            problem=f"is a deck printdeck built (its manifest {shown(manifest)} is beside it), not {what}",
            fix=f"choose another {option} for {what}",
            is_argument=True,
            code=FOREIGN_OUTPUT,
        )


def check_png_path(
    png: Path,
    argument: str = "out",
    option: str = "-o",
    older: tuple[str, ...] = (),
    older_look: Callable[[Path], bool] | None = None,
) -> None:
    """Refuse to write ``png`` over a file there that printdeck did not write: one whose
    ``Software`` text (:data:`PNG_SOFTWARE`, which every PNG printdeck writes carries) does
    not name printdeck (a user's holiday photo named ``preview.png``), as
    :func:`check_pdf_path` refuses a PDF.

    Args:
        png: The PNG to write.
        argument: The argument that named it (the error's key).
        option: How the command line names that argument, for the fix.
        older: ``Software`` an older printdeck's file of this kind names (its plots were
            Matplotlib's), taken as printdeck's too.
        older_look: Whether a file is, by its look, one an older printdeck wrote without
            marking it (a preview's contact sheet), taken as printdeck's too.

    Raises:
        PrintdeckError: Keyed to ``argument``, naming the file and the fix.
    """
    if not _regular_file(png) or _png_by_printdeck(png, older) or (older_look is not None and older_look(png)):
        return
    raise _not_ours(png, argument, option)


def own_png_info() -> PngInfo:
    """The text of a PNG printdeck writes to a path it is given, saying so (:data:`PNG_SOFTWARE`):
    :func:`check_png_path` lets a later run replace the file."""
    from PIL.PngImagePlugin import PngInfo  # noqa: PLC0415 - Pillow only when a PNG is written

    info = PngInfo()
    info.add_text(PNG_SOFTWARE_KEY, PNG_SOFTWARE)
    return info


def _not_ours(path: Path, argument: str, option: str) -> PrintdeckError:
    """The refusal of ``path``, a file printdeck did not write where a command given it by
    ``argument`` (``option`` on the command line) would write."""
    return PrintdeckError(  # the file named in the problem too: the studio says the problem without the path
        source=shown(path),
        key=argument,
        problem=f"{shown(path.name)} is there already and printdeck did not write it",
        fix=f"move it away or choose another {option}",
        is_argument=True,
        code=FOREIGN_OUTPUT,
    )


def _png_by_printdeck(png: Path, older: tuple[str, ...] = ()) -> bool:
    """Whether the PNG file ``png`` names printdeck (or one of ``older``) as its
    ``Software`` (a text chunk before its pixels: only the head of the file is read). The
    PNG reader is used directly, not through ``Image.open``: its pixel-count guard refuses a
    large preview whose pixels are never decoded here."""
    from PIL import PngImagePlugin  # noqa: PLC0415 - only when a PNG is in the way

    try:
        with PngImagePlugin.PngImageFile(png) as image:
            return str(image.info.get(PNG_SOFTWARE_KEY, "")).startswith((PNG_SOFTWARE, *older))
    except (OSError, SyntaxError, ValueError, EOFError):
        return False


def _made_by_printdeck(pdf: Path, older: tuple[str, ...] = ()) -> bool:
    """Whether the PDF file ``pdf`` names printdeck (or one of ``older``) as its creator
    (Info ``/Creator``)."""
    import pikepdf  # noqa: PLC0415 - only when a PDF without its manifest is in the way

    try:
        with pikepdf.open(pdf) as doc:
            return str(doc.trailer.get("/Info", {}).get("/Creator", "")).startswith(("printdeck", *older))
    except (pikepdf.PdfError, OSError, ValueError):
        return False


def check_others(pdf: Path, others: Sequence[Path]) -> None:
    """Refuse to write ``others`` (the extras PDF and cut files beside ``pdf``) when one of
    them is there and the manifest of the earlier build of ``pdf`` does not list it under
    :data:`OUTPUTS_KEY`: printdeck did not write it, so it is not printdeck's to replace. A
    manifest without the key is an older printdeck's, which wrote such files without
    recording them: they are taken as its own. With no manifest at all (the user deleted
    it), a file that is plainly one printdeck writes is taken as its own too
    (:func:`_side_file_of_ours`).

    Raises:
        PrintdeckError: Keyed to ``out``, naming the first such file, how many more, and the fix.
    """
    earlier = read_manifest(pdf.with_suffix(".json"))  # read once: it holds the names too
    if earlier is not None and OUTPUTS_KEY not in earlier:  # an older printdeck's: it recorded none it wrote
        return
    recorded = set(_names_in(earlier))
    foreign = [
        p
        for p in others
        if p.name not in recorded and os.path.lexists(p) and not (earlier is None and _side_file_of_ours(p))
    ]
    if foreign:
        more = f" (and {len(foreign) - 1} more of its files)" if len(foreign) > 1 else ""
        raise _foreign(
            pdf,
            f"this build writes {shown(foreign[0])}{more}, and that file is not one an earlier build "
            "of this PDF recorded writing (it would be overwritten)",
            "move it away or choose another output name",
        )


SIDE_FILE_HEAD = 4096
"""Bytes of a cut file read to see whether printdeck wrote it."""


def _side_file_of_ours(path: Path) -> bool:
    """Whether ``path`` (beside a PDF whose manifest is gone) is plainly a file printdeck
    writes: an extras PDF naming printdeck as its creator, an SVG cut file with its ``cut``
    layer, a DXF cut file ezdxf saved; a regular file, read no further than its head."""
    if not _regular_file(path):
        return False
    if path.suffix.lower() == ".pdf":
        return _made_by_printdeck(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(SIDE_FILE_HEAD)
    except OSError:
        return False
    if path.suffix.lower() == ".svg":
        return head.startswith(b"<svg ") and b'<g id="cut" ' in head
    return path.suffix.lower() == ".dxf" and b"$LASTSAVEDBY\n  1\nezdxf" in head.replace(b"\r\n", b"\n")


def stale_outputs(pdf: Path, written: Sequence[Path], inputs: Sequence[Path]) -> list[Path]:
    """The files an earlier build of the PDF ``pdf`` recorded writing beside it (its
    manifest's :data:`OUTPUTS_KEY`) that this build, writing ``written``, does not write
    again: only names of :func:`own_output_name`, only regular files (not a symlink, a
    folder or a device), never one of ``inputs`` (the files the build reads). Never raises."""
    keep = {p.name for p in written}
    found = []
    for name in recorded_outputs(pdf.with_suffix(".json")):
        if name in keep or not own_output_name(pdf, name):  # a name of its own: no folder in it
            continue
        path = pdf.with_name(name)
        if _regular_file(path) and not any(same_file(path, source) for source in inputs):
            found.append(path)
    return found


def _foreign(pdf: Path, problem: str, fix: str) -> PrintdeckError:
    """The refusal of a file printdeck did not write where the build of ``pdf`` would write
    (:data:`~printdeck.errors.FOREIGN_OUTPUT`, said of ``-o``, as :func:`path_error` says it)."""
    return PrintdeckError(source=shown(pdf), key="out", problem=problem, fix=fix, is_argument=True, code=FOREIGN_OUTPUT)


def _regular_file(path: Path) -> bool:
    """Whether ``path`` is a regular file itself (not a symlink, a folder or a device)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False
