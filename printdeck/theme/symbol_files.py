"""The files of a theme's symbols, checked once each: a folder's pictures listed, each file
checked (on a few threads, results taken in theme order), the same file or the same
picture given twice refused, and an SVG's check deferred when the caller asks.

:class:`Seen` holds what earlier symbols used; :mod:`printdeck.theme.symbols` resolves
the entries with it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from printdeck.choices import PICTURE_FORMATS
from printdeck.errors import SAME_PICTURE, UNREADABLE_PICTURE, PrintdeckError, folder_spellings, key_error, shown
from printdeck.theme.images import FileCheck, check_raster_file, check_svg_file
from printdeck.theme.theme_paths import IMAGE_SUFFIXES, UNSUPPORTED_SUFFIXES


@dataclass
class Seen:
    """What earlier symbols used, to refuse duplicates."""

    paths: dict[Path, str] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    """Each word given, case folded -> where it was first given (``symbols.3.faces.0``)."""
    face_words: dict[str, list[str]] = field(default_factory=dict)
    """Each symbol's words as given (``symbols.3`` -> its faces' words)."""
    fonts: set[tuple[Path, int]] = field(default_factory=set)
    checked: dict[Path, FileCheck | PrintdeckError] = field(default_factory=dict)
    progress: Callable[[int], None] = lambda n: None
    roots: tuple[Path, ...] | None = None
    deferred: dict[Path, str] | None = None
    """SVGs left unchecked (file -> theme key), when the caller defers their checks."""
    word_langs: dict[str, str] = field(default_factory=dict)
    """A word's own language where the theme gives none and mixes Japanese and Korean words
    (:func:`~printdeck.theme.han_forms.word_langs`)."""


def folder_images(
    folder: Path, where: str, photo: bool, refused: list[tuple[Path, PrintdeckError]] | None = None
) -> list[Path]:
    """The image files of a folder (:data:`~printdeck.theme.theme_paths.PICTURE_FORMATS`), sorted by name.

    Hidden files are skipped and so are non-image files (notes, licences). With ``refused``,
    a picture of a kind printdeck cannot read (a GIF) is appended to it with its refusal
    instead of raised (``init`` says every bad picture of a folder at once).

    Raises:
        PrintdeckError: The folder cannot be listed; it holds an image format
            printdeck cannot read (GIF, BMP, TIFF, HEIC...), an SVG where photos
            are expected, an image name that is not a regular file, or no images.
    """
    try:
        entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    except OSError as exc:
        raise key_error(f"{where}", f"cannot list {shown(folder)} ({exc.strerror}); check its permissions") from None
    files = []
    for p in entries:
        suffix = p.suffix.lower()
        if suffix in UNSUPPORTED_SUFFIXES and not p.is_dir():
            unreadable = key_error(
                f"{where}",
                f"{shown(p)} is a {suffix} file, which printdeck cannot read; "
                "convert it to PNG or JPEG (or move it out of the folder)",
                code=UNREADABLE_PICTURE,
            )
            if refused is None:
                raise unreadable
            refused.append((p, unreadable))
            continue
        if suffix == ".svg" and photo:
            raise key_error(f"{where}", f"{shown(p)} is an SVG, not a photo; list it under image: instead")
        if suffix in IMAGE_SUFFIXES and not p.is_dir():  # a sub-folder named like a picture is a sub-folder
            if not p.is_file():
                raise key_error(f"{where}", f"{shown(p)} is not a regular file; replace it with an image or remove it")
            files.append(p)
    if not files and not refused:  # only pictures printdeck cannot read: the caller says each
        raise key_error(f"{where}", f"{shown(folder)} holds no pictures ({PICTURE_FORMATS}); add some or fix the path")
    return files


SAID_PICTURES = 6
"""The most refused pictures ``init`` or a theme's folder names in its one line, then how many more."""


def refused_line(refused: list[tuple[Path, PrintdeckError]]) -> str:
    """``"2 pictures cannot be used: 1) pics/a.jpg is truncated or corrupt (...): copy the
    file again ...; 2) pics/b.png is truncated or corrupt (...): the same"``: each picture's
    problem and fix as its own check says them, a fix said before as "the same"."""
    said, fix_before = [], None
    for k, (_, exc) in enumerate(refused[:SAID_PICTURES], start=1):
        problem, _, fix = str(exc.problem or exc).partition("; ")
        if exc.source and exc.source not in problem:  # "is the same picture as ...": said of its file
            problem = f"{exc.source} {problem}"
        fix = exc.fix or fix
        said.append(f"{k}) {problem}: {'the same' if fix == fix_before else fix}" if fix else f"{k}) {problem}")
        fix_before = fix
    more = f"; and {len(refused) - SAID_PICTURES} more" if len(refused) > SAID_PICTURES else ""
    if len(refused) == 1:
        return f"1 picture cannot be used: {said[0].removeprefix('1) ')}"
    return f"{len(refused)} pictures cannot be used: {'; '.join(said)}{more}"


def folder_refusal(key: str, refused: list[tuple[Path, PrintdeckError]], folder: Path) -> PrintdeckError:
    """The one refusal of a theme's folder entry ``key`` whose pictures ``refused`` cannot be
    used (two or more: :func:`refused_line`, and where to move them)."""
    return key_error(key, f"{refused_line(refused)}; or move them out of {shown(folder)}")


def file_check(path: Path, where: str, defer: bool = False) -> FileCheck | PrintdeckError:
    """The check of one artwork file, or the refusal it ends in (raised later, in theme order);
    with ``defer``, an SVG not checked before is only read and fingerprinted."""
    try:
        if path.suffix.lower() == ".svg":
            return check_svg_file(path, where, defer)
        return check_raster_file(path, where)
    except PrintdeckError as exc:
        return exc


def prefetch_checks(files: list[Path], wheres: list[str], seen: Seen) -> None:
    """Check a folder's files on a few threads (decoding releases the GIL); the results wait
    in ``seen.checked`` for :func:`check_file`, which takes them in theme order."""
    defer = [seen.deferred is not None] * len(files)
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        for f, result in zip(files, pool.map(file_check, files, wheres, defer)):
            seen.checked[f] = result


def check_files_later(
    files: list[tuple[Path, str]],
    label: str,
    progress: Callable[[int], None] | None = None,
    base: Path | None = None,
) -> None:
    """Check SVG files whose checks a load deferred (see :func:`resolve_symbols`), on a few
    threads; the first refusal in the order given is raised, with the others of its folder
    entry when there are more (:func:`refused_line`: one line, not one a run).

    Args:
        files: (file, theme key naming it), in theme order.
        label: The theme's name in messages (its file).
        progress: Called with 1 after each file.
        base: The theme's folder: its files are named as the theme names them (:func:`said_in`).

    Raises:
        PrintdeckError: As :func:`printdeck.theme.images.check_svg_file`, said of ``label``.
    """
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        results = list(pool.map(lambda job: file_check(*job), files))
    refused = [(path, where, r) for (path, where), r in zip(files, results) if isinstance(r, PrintdeckError)]
    if refused:
        path, where, first = refused[0]
        entry = where.split(" (")[0]  # a folder's pictures are keyed "symbols.0.folder (x.svg)"
        same = [(p, r) for p, w, r in refused if w.split(" (")[0] == entry]
        refusal = first if len(same) == 1 else folder_refusal(entry, same, path.parent)
        raise (refusal if base is None else said_in(refusal, base)).located(label)
    if progress is not None:
        for _ in results:
            progress(1)


def said_in(exc: PrintdeckError, base: Path) -> PrintdeckError:
    """``exc`` with the files in the theme's folder ``base`` named as the theme names them
    (``pics/cat.jpg``, not the whole path a check read), as a missing file is named; the
    folder is spelled as a path of this system spells it (``\\`` on Windows)."""
    for spelled in folder_spellings(base):
        exc = exc.renamed(spelled, "")
    return exc


def checked_now(path: Path, where: str) -> PrintdeckError | None:
    """The refusal of a file whose check was deferred, checked now in full (None: it passes)."""
    result = file_check(path, where)
    return result if isinstance(result, PrintdeckError) else None


def check_file(path: Path, where: str, seen: Seen, check_files: bool) -> FileCheck | None:
    resolved = path.resolve()
    if resolved in seen.paths:
        raise key_error(f"{where}", f"{shown(path)} is already used by {seen.paths[resolved]}; list each picture once")
    seen.paths[resolved] = where
    if not check_files:
        return None
    check = seen.checked.pop(path, None) or file_check(path, where, seen.deferred is not None)
    if isinstance(check, PrintdeckError):
        raise check
    if check.deferred and seen.deferred is not None:
        seen.deferred[path] = where
    for digest in check.digests:
        if digest in seen.digests:
            earlier = seen.digests[digest]
            raise key_error(
                f"{where}",
                f"{shown(path)} is the same picture as {earlier}; remove one of the two copies",
                code=SAME_PICTURE,
                also=(earlier.split(" (")[0],),  # its key, without the file named after it
            )
    named = where if where.endswith(f"({path.name})") else f"{where} ({path.name})"  # a folder's key names it already
    for digest in check.digests:
        seen.digests[digest] = named
    seen.progress(1)
    return check
