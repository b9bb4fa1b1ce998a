"""New symbols from the page: dropped or picked pictures and pasted words, a back
picture and a font; each checked by printdeck before the theme names it.

A file printdeck refuses is not kept (the copy the studio just made is removed again):
it shows as a tile with the command line's one-line reason, until the user dismisses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from printdeck.errors import PrintdeckError, shown
from printdeck.model import size_text
from printdeck.studio import uploads
from printdeck.studio.symbol_list import Item, next_uid, words_of
from printdeck.studio.wording import Problem, touches
from printdeck.studio.workspace import Refused, Workspace

BACKS_FOLDER = "backs"
FONTS_FOLDER = "fonts"
PROBE_WORDS = [{"text": w} for w in ("Aa", "Bb", "Cc", "Dd", "Ee", "Ff", "Gg")]
"""Seven words: the smallest deck, so a probe theme loads far enough to check one key's file."""


def add_pictures(space: Workspace, files: list[uploads.Upload]) -> list[dict[str, Any]]:
    """Copy pictures into the theme folder's ``images/`` and add them as symbols.

    Returns:
        One result a file, in order: ``{"file", "ok", "uid"}`` or ``{"file", "ok": False,
        "error"}`` (the command line's words; also kept in ``space.rejected``).
    """
    results: dict[int, dict[str, Any]] = {}
    made: dict[int, Path] = {}
    items: list[Item] = []
    with space.editing():
        room = uploads.MAX_SYMBOLS - len(space.items)
        taken = {item.file for item in space.items if item.file}
        for number, upload in enumerate(files):
            try:
                item, path = _stored(space.folder, upload, taken, room - len(items))
            except PrintdeckError as exc:
                results[number] = _refused(space, upload.filename, str(exc))
                continue
            taken.add(item.file or "")
            items.append(item)
            results[number] = {"file": upload.filename, "ok": True, "uid": item.uid}
            if path is not None:
                made[item.uid] = path
        numbers = {results[n]["uid"]: n for n in results if results[n]["ok"]}

        def refuse(item: Item, problem: Problem) -> None:
            path = made.pop(item.uid, None)
            if path is not None:
                path.unlink(missing_ok=True)
            number = numbers[item.uid]
            results[number] = _refused(space, files[number].filename, problem.about_file)

        space.add_items(items, refuse)
    return [results[n] for n in range(len(files))]


def _stored(folder: Path, upload: uploads.Upload, taken: set[str], room: int) -> tuple[Item, Path | None]:
    """Write one upload into ``images/`` under a free name; the item naming it, and the
    file if it is new (``None`` when a file with these bytes was there already)."""
    if room <= 0:
        raise PrintdeckError(f"symbols: a theme holds at most {uploads.MAX_SYMBOLS} symbols; remove some first")
    if len(upload.data) > uploads.MAX_FILE_BYTES:
        raise PrintdeckError(
            f"{shown(upload.filename)}: {size_text(len(upload.data))} is larger than the "
            f"{size_text(uploads.MAX_FILE_BYTES)} a picture may be; make it smaller"
        )
    name = uploads.safe_file_name(upload.filename, uploads.PICTURE_SUFFIXES)
    if name.endswith(".svg"):
        uploads.check_svg_scripts(name, upload.data)
    pictures = folder / uploads.PICTURES_FOLDER
    taken_names = {t.rsplit("/", 1)[-1] for t in taken if t.startswith(uploads.PICTURES_FOLDER + "/")}
    name, existed = uploads.free_name(pictures, name, upload.data, taken_names)
    path = None if existed else uploads.store(pictures, name, upload.data)
    key = uploads.picture_key(name, upload.data)
    return Item({key: f"{uploads.PICTURES_FOLDER}/{name}"}), path


def _refused(space: Workspace, filename: str, line: str) -> dict[str, Any]:
    uid = next_uid()
    space.rejected.append({"uid": uid, "file": filename, "error": line})
    return {"file": filename, "ok": False, "error": line, "uid": uid}


def add_words(space: Workspace, text: str) -> list[dict[str, Any]]:
    """Add the words of a pasted list (one a line) as symbols.

    Returns:
        One result a word, as :func:`add_pictures` (a word printdeck refuses, e.g. one
        already in the deck or with letters no font has, is not added).
    """
    words = words_of(text)
    with space.editing():
        room = uploads.MAX_SYMBOLS - len(space.items)
        results = [{"file": w, "ok": True} for w in words]
        items = [Item({"text": w}) for w in words[: max(room, 0)]]
        for number, word in enumerate(words[len(items) :], start=len(items)):
            results[number] = _refused(space, word, f"symbols: a theme holds at most {uploads.MAX_SYMBOLS} symbols")
        numbers = {item.uid: n for n, item in enumerate(items)}
        for item in items:
            results[numbers[item.uid]]["uid"] = item.uid

        def refuse(item: Item, problem: Problem) -> None:
            number = numbers[item.uid]
            results[number] = _refused(space, words[number], problem.about_file)

        space.add_items(items, refuse)
    return results


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
    if len(upload.data) > uploads.MAX_FILE_BYTES:
        raise PrintdeckError(
            f"{key}: {shown(upload.filename)} is larger than {size_text(uploads.MAX_FILE_BYTES)}; choose a smaller file"
        )
    name = uploads.safe_file_name(upload.filename, suffixes, fallback=folder_name)
    if name.endswith(".svg"):
        uploads.check_svg_scripts(name, upload.data)
    with space.editing():
        folder = space.folder / folder_name
        name, existed = uploads.free_name(folder, name, upload.data, set())
        path = None if existed else uploads.store(folder, name, upload.data)
        ref = f"{folder_name}/{name}"
        _, problem = space.check(probe(ref), check_files=True)
        if problem is not None and (touches(problem.key, key) or problem.symbol_index is not None):
            if path is not None:
                path.unlink(missing_ok=True)
            raise PrintdeckError(problem.line)
        try:
            space.change_settings({key: ref, **also})
        except Refused:
            if path is not None:
                path.unlink(missing_ok=True)
            raise
    return ref
