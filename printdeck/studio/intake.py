"""New symbols from the page: dropped or picked pictures (pasted words:
:mod:`~printdeck.studio.typed_words`), a back picture and a font; each checked by
printdeck before the theme names it.

A file printdeck refuses is not kept (the copy the studio just made is removed again):
it shows as a tile with the command line's one-line reason, until the user dismisses it,
the next drop is taken, or (a copy of another symbol's picture, word or name) that symbol
leaves the deck (at most :data:`MAX_REJECTED` tiles are kept). A batch that
cannot be written (the folder gone, a full or read-only disk) is all or nothing: every
file it copied is removed again and :class:`~printdeck.studio.theme_folder.Unwritable`
says why.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import printdeck
from printdeck.errors import PrintdeckError, key_error
from printdeck.studio import setting_changes, symbol_changes, uploads
from printdeck.studio.symbol_list import Item, next_uid
from printdeck.studio.theme_folder import Unwritable
from printdeck.studio.thumbnails import thumbnail
from printdeck.studio.wording import Problem, problem_of, touches
from printdeck.studio.workspace import Refused, Workspace

BACKS_FOLDER = "backs"
FONTS_FOLDER = "fonts"
PROBE_WORDS = [{"text": w} for w in ("Aa", "Bb", "Cc", "Dd", "Ee", "Ff", "Gg")]
"""Seven words: the smallest deck, so a probe theme loads far enough to check one key's file."""
MAX_REJECTED = 200
READY_THREADS = min(2, os.cpu_count() or 1)
"""Threads tracing checked pictures while the next ones are checked (decoding and finding
faces run in native code that releases the GIL, so requests are still answered)."""
READY_NICENESS = 5
"""How much lower the tracing threads' CPU priority is (Linux: a nice value a thread):
work done ahead of time never slows the checks, the requests or the first sheet."""
"""Most refused tiles kept (the latest); the answer of a drop still counts every refusal."""


@contextlib.contextmanager
def drop_batch(space: Workspace, made: dict[int, Path], drop: str | None) -> Iterator[None]:
    """All or nothing: if the body fails, the files it copied (``made``) are removed and the
    refused tiles it added forgotten; if it succeeds, tiles of earlier drops are dropped
    (the tiles of this drop, ``drop``, stay: a big drop comes in several batches)."""
    rejected_before = list(space.rejected)
    try:
        yield
    except BaseException:
        for path in made.values():
            with contextlib.suppress(OSError):
                path.unlink()
        space.keep_rejected(rejected_before)
        raise
    _forget_earlier(space, rejected_before, drop)


def _forget_earlier(space: Workspace, rejected_before: list[dict[str, Any]], drop: str | None) -> None:
    """Drop the refused tiles of drops other than ``drop`` that were there before it."""
    with space.lock:
        earlier = {r["uid"] for r in rejected_before if drop is None or r.get("drop") != drop}
        space.keep_rejected([r for r in space.rejected if r["uid"] not in earlier][-MAX_REJECTED:])


@dataclass
class Staged:
    """A drop's pictures written into ``images/``, waiting for printdeck's check.

    Attributes:
        drop: The page's name for the drop (a big drop comes in several batches).
        names: Every file's name as the browser sent it, in order.
        refused: Why each file refused already was (too large, a kind printdeck cannot
            read, no room left), by its number in ``names``.
        items: The other files: (number, the symbol naming it, the file written, or
            None when a file with these bytes was there already).
    """

    drop: str | None
    names: list[str]
    refused: dict[int, Problem] = field(default_factory=dict)
    items: list[tuple[int, Item, Path | None]] = field(default_factory=list)
    face_of: int | None = None

    def files(self) -> set[str]:
        """The files (as ``theme.yaml`` names them) this drop holds until it is checked."""
        return {item.file for _, item, _ in self.items if item.file}


def stage_pictures(
    space: Workspace,
    files: list[uploads.Upload],
    drop: str | None = None,
    pending: Staged | None = None,
    face_of: int | None = None,
) -> Staged:
    """Copy pictures into the theme folder's ``images/`` (atomically each, under names no
    other file has), to be checked by :func:`check_staged`. All or nothing: if one cannot
    be written, every file of the batch is removed again.

    Args:
        space: The workspace.
        files: The uploaded files.
        drop: The page's name for the drop these files are part of.
        pending: Drops written but not checked yet, as one (their files are taken).
        face_of: The symbol the one picture is dropped on, to become a face of
            (:func:`check_staged`), or None.

    Raises:
        Unwritable: the folder cannot be written; nothing of the batch was kept.
    """
    staged = Staged(drop, [f.filename for f in files], face_of=face_of if len(files) == 1 else None)
    with space.lock:
        taken = {item.file for item in space.items if item.file} | (pending.files() if pending else set())
        room = uploads.MAX_SYMBOLS - len(space.items) - (len(pending.items) if pending else 0)
    try:
        for number, upload in enumerate(files):
            try:
                item, path = _stored(space.folder, upload, taken, room - len(staged.items))
            except Unwritable:
                raise
            except PrintdeckError as exc:
                staged.refused[number] = problem_of(exc, space.folder)
                continue
            taken.add(item.file or "")
            staged.items.append((number, item, path))
    except BaseException:
        _remove(staged)
        raise
    return staged


def check_staged(
    space: Workspace, staged: Staged, progress: Callable[[int, str], None] | None = None
) -> list[dict[str, Any]]:
    """Check each staged picture with printdeck (decoded alone, then against the deck for
    copies) and add those that pass as symbols, holding the workspace's lock only to save.
    While the next file is checked, those that passed are traced on other threads
    (:func:`ready`); what is not traced when the checks end is left to the first sheet.

    A refused file is removed again and becomes a tile with the command line's one-line
    reason; tiles of earlier drops go once the drop is saved (those of ``staged.drop`` stay).

    Args:
        space: The workspace.
        staged: From :func:`stage_pictures`.
        progress: Called before each file with the number of files checked so far and
            the file's name.

    Returns:
        One result a file, as :func:`add_pictures`.

    Raises:
        Unwritable: ``theme.yaml`` cannot be written; every file of the batch was removed.
    """
    rejected_before = list(space.rejected)
    results = {n: refused_tile(space, staged.names[n], problem, staged.drop) for n, problem in staged.refused.items()}
    checked = len(results)
    passed: list[Item] = []
    readying = ThreadPoolExecutor(READY_THREADS, "printdeck-studio-ready", initializer=_lower_priority)
    try:
        for number, item, _ in staged.items:  # while file k is decoded, the files before it are traced
            if progress is not None:
                progress(checked, staged.names[number])
            _, problem = space.check_alone(item)
            if problem is None:
                passed.append(item)
                readying.submit(ready, space.folder, item)
            checked += 1
            results[number] = _result(space, staged, number, item, problem)
    finally:  # saved at once: the first sheet traces the rest, several at a time
        readying.shutdown(wait=False, cancel_futures=True)
    if progress is not None:
        progress(checked, "")
    try:
        if staged.face_of is not None and passed and _as_face(space, staged, results, passed[0]):
            passed = []
        space.add_checked(passed, lambda *refused: _refuse(space, staged, results, *refused))
    except BaseException:
        _remove(staged)
        ours = {r["uid"] for r in results.values() if not r["ok"]}
        with space.lock:
            space.keep_rejected([r for r in space.rejected if r["uid"] not in ours])
        raise
    _forget_earlier(space, rejected_before, staged.drop)
    return [results[n] for n in range(len(staged.names))]


def _as_face(space: Workspace, staged: Staged, results: dict[int, dict[str, Any]], item: Item) -> bool:
    """Make the checked picture ``item`` a face of ``staged.face_of`` (a file dropped on a
    word's tile), its result saying so; False when that symbol is gone (it is added as a
    symbol of its own, as any picture dropped)."""
    assert staged.face_of is not None
    number = next(n for n, i, _ in staged.items if i.uid == item.uid)
    try:
        symbol_changes.add_face(space, staged.face_of, item)
    except KeyError:
        return False
    except ValueError as exc:  # a folder, more than 8 faces: said as the command line says it
        results[number] = _result(space, staged, number, item, problem_of(PrintdeckError(str(exc)), space.folder))
        return True
    except Refused as exc:
        results[number] = _result(space, staged, number, item, exc.problem)
        return True
    results[number] = {"file": staged.names[number], "ok": True, "uid": staged.face_of, "face_of": staged.face_of}
    return True


def _result(
    space: Workspace, staged: Staged, number: int, item: Item, problem: Problem | None, repeats: int | None = None
) -> dict[str, Any]:
    if problem is None:
        return {"file": staged.names[number], "ok": True, "uid": item.uid}
    _unlink(staged, item)
    return refused_tile(space, staged.names[number], problem, staged.drop, repeats, item)


def _refuse(
    space: Workspace,
    staged: Staged,
    results: dict[int, dict[str, Any]],
    item: Item,
    problem: Problem,
    repeats: int | None,
) -> None:
    """A file printdeck calls a copy of an earlier symbol (uid ``repeats``): removed, and a tile says why."""
    number = next(n for n, i, _ in staged.items if i.uid == item.uid)
    results[number] = _result(space, staged, number, item, problem, repeats)


def _unlink(staged: Staged, item: Item) -> None:
    path = next((p for _, i, p in staged.items if i.uid == item.uid), None)
    if path is not None:
        path.unlink(missing_ok=True)


def _remove(staged: Staged) -> None:
    for _, _, path in staged.items:
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()


def ready(folder: Path, item: Item) -> None:
    """Find now what the first sheet and the page ask for next about a checked picture: its
    drawing and silhouette (for a photo, its crop: faces, a pet's face or the subject, the
    slowest part of a sheet of new photos) and its thumbnail. Both are kept (in this process
    and printdeck's cache); a failure here is left for the preview or the build to report."""
    if item.file is None:
        return
    doc = {"deck": {"symbols_per_card": 3}, "symbols": [item.data, *PROBE_WORDS[1:]]}
    with contextlib.suppress(PrintdeckError, OSError, ValueError):
        symbol = printdeck.load_theme(doc, base_dir=folder, check_files=False).symbols[0]
        printdeck.trace_symbol(symbol)
        if symbol.path is not None:
            thumbnail(Path(symbol.path))


def _lower_priority() -> None:
    """Give the calling thread a lower CPU priority (:data:`READY_NICENESS`)."""
    with contextlib.suppress(AttributeError, OSError):
        native = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, native, os.getpriority(os.PRIO_PROCESS, native) + READY_NICENESS)


def add_pictures(
    space: Workspace, files: list[uploads.Upload], drop: str | None = None, face_of: int | None = None
) -> list[dict[str, Any]]:
    """Copy pictures into the theme folder's ``images/`` and add them as symbols, checked
    on this thread (:func:`stage_pictures`, then :func:`check_staged`).

    Args:
        space: The workspace.
        files: The uploaded files.
        drop: The page's name for the drop these files are part of (a big drop comes in
            several batches); refused tiles of other drops are forgotten.
        face_of: The symbol one picture becomes a face of (see :func:`stage_pictures`).

    Returns:
        One result a file, in order: ``{"file", "ok", "uid"}`` or ``{"file", "ok": False,
        "error", "uid"}`` (the command line's words; also kept in ``space.rejected``).

    Raises:
        Unwritable: the folder cannot be written; nothing of the batch was kept.
    """
    return check_staged(space, stage_pictures(space, files, drop, face_of=face_of))


def _stored(folder: Path, upload: uploads.Upload, taken: set[str], room: int) -> tuple[Item, Path | None]:
    """Write one upload into ``images/`` under a free name; the item naming it, and the
    file if it is new (``None`` when a file with these bytes was there already)."""
    if room <= 0:
        raise key_error("symbols", f"a theme holds at most {uploads.MAX_SYMBOLS} symbols; remove some first")
    large = uploads.too_large(upload, "a picture")
    if large:
        raise PrintdeckError(large)
    name = uploads.safe_file_name(upload.filename, uploads.PICTURE_SUFFIXES)
    pictures = folder / uploads.PICTURES_FOLDER
    taken_names = {t.rsplit("/", 1)[-1] for t in taken if t.startswith(uploads.PICTURES_FOLDER + "/")}
    name, existed = uploads.free_name(pictures, name, upload.data, taken_names)
    path = None if existed else uploads.store(pictures, name, upload.data)
    kind = printdeck.picture_kind(name, upload.data)  # as printdeck init makes the entry
    keys = {"remove_background": True} if kind.cut_out else {}  # clip art on white: printed without the white
    if kind.upright:
        keys["rotate"] = False  # a cut-out person or pet: never upside down
    return Item({kind.key: f"{uploads.PICTURES_FOLDER}/{name}", **keys}), path


def refused_tile(
    space: Workspace,
    filename: str,
    problem: Problem,
    drop: str | None,
    repeats: int | None = None,
    item: Item | None = None,
) -> dict[str, Any]:
    """A refused file's or word's tile: the command line's words about it (``error``) and
    the page's (``words``); ``repeats``, the uid of the symbol ``item`` is a copy of (the
    tile goes when that symbol does: see :meth:`Workspace.relink_refusals`), and what it
    repeats of it (``shares``: :meth:`Workspace.shares_of`)."""
    uid = next_uid()
    line, words = problem.about_file, problem.words_alone
    shares = space.shares_of(item, repeats) if item is not None and repeats is not None else None
    with space.lock:
        tile = {"uid": uid, "file": filename, "error": line, "words": words, "drop": drop, "repeats": repeats}
        tile["shares"] = shares
        tile["code"] = problem.code  # a copy's words name the symbol it copies where it now is (Workspace.view)
        space.keep_rejected([*space.rejected, tile])
    return {"file": filename, "ok": False, "error": line, "words": words, "uid": uid}


def set_backs_image(space: Workspace, upload: uploads.Upload) -> str:
    """Copy a picture or logo for the card backs into ``backs/`` and use it (backs on).

    Returns:
        The path the theme names (``backs/logo.svg``).

    Raises:
        PrintdeckError: the file is too large, of a kind printdeck cannot read, or
            printdeck refuses it (the command line's line).
    """
    return _set_file(
        space,
        upload,
        BACKS_FOLDER,
        uploads.PICTURE_SUFFIXES,
        "backs.image",
        lambda ref: {"deck": {"symbols_per_card": 3}, "backs": {"image": ref}, "symbols": PROBE_WORDS},
        {"backs.enabled": True},
    )


def set_font(space: Workspace, upload: uploads.Upload) -> str:
    """Copy a font file (``.ttf``, ``.otf``, ``.ttc``) into ``fonts/`` and set the words in it.

    Raises:
        PrintdeckError: as :func:`set_backs_image`, for a font.
    """
    return _set_file(
        space,
        upload,
        FONTS_FOLDER,
        uploads.FONT_SUFFIXES,
        "text.font",
        lambda ref: {"text": {"font": ref}, "symbols": PROBE_WORDS[:1]},
        {},
    )


def _set_file(
    space: Workspace,
    upload: uploads.Upload,
    folder_name: str,
    suffixes: set[str],
    key: str,
    probe: Any,
    also: dict[str, object],
) -> str:
    large = uploads.too_large(upload, "a file")
    if large:
        raise key_error(key, f"{large}")
    name = uploads.safe_file_name(upload.filename, suffixes, fallback=folder_name)
    with space.editing():
        folder = space.folder / folder_name
        name, existed = uploads.free_name(folder, name, upload.data, set())
        path = None if existed else uploads.store(folder, name, upload.data)
        ref = f"{folder_name}/{name}"
        _, problem = space.check(probe(ref), check_files=True)
        if problem is not None and (touches(problem.key, key) or problem.symbol_index is not None):
            if path is not None:
                path.unlink(missing_ok=True)
            raise problem.error()
        try:
            setting_changes.change_settings(space, {key: ref, **also})
        except (Refused, PrintdeckError):  # refused, or theme.yaml could not be written
            if path is not None:
                path.unlink(missing_ok=True)
            raise
    return ref
