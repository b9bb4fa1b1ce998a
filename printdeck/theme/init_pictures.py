"""``printdeck init --images``: the pictures of a folder as a starter theme's entries, each
checked as ``check`` checks it, every bad one said at once (left out with a warning, or
refused when too few pictures are left for a deck)."""

from __future__ import annotations

import os
import unicodedata
import warnings
from pathlib import Path

from printdeck.artwork import rasterise_longest
from printdeck.emoji_names import emoji_in, emoji_name
from printdeck.errors import SAME_PICTURE, PrintdeckError, shown
from printdeck.model import SymbolKind, SymbolSpec
from printdeck.theme.images import check_raster_file, check_svg_file
from printdeck.theme.picture_kind import PictureKind, picture_kind
from printdeck.theme.symbol_files import SAID_PICTURES, folder_images, refused_line
from printdeck.theme.theme_paths import IMAGE_SUFFIXES, name_from_file, original_first
from printdeck.theme.word_colours import MIN_VISIBLE_SHARE, PROOF_PX, visible_ink
from printdeck.theme.word_list import argument_error

PICTURES_FOLDER = "images"
"""Where ``init --images`` copies pictures from outside the new theme's folder."""


def image_entries(
    folder: Path, theme_dir: Path, copies: list[tuple[Path, Path]]
) -> tuple[list[tuple[str, str, PictureKind]], list[tuple[Path, PrintdeckError]]]:
    """The pictures of a folder as (path in the theme, name, entry): the entry's key is
    ``photo`` for an opaque raster, else ``image`` (clip art on a plain background included,
    its background removed), upright for a cut-out showing a face
    (:func:`~printdeck.theme.picture_kind.picture_kind`); and each picture that cannot be
    used (a file printdeck cannot read, a copy of another) with its refusal, as ``check``
    would refuse it (:func:`refusal` says them all in one line).

    A theme reads only its own folder, so pictures outside ``theme_dir`` are listed
    as ``images/<name>`` and (source, copy) pairs are appended to ``copies``.
    """
    if not folder.is_dir():
        raise argument_error("images", "is not a folder", "give the folder holding your pictures", source=folder)
    inside = folder.resolve().is_relative_to(theme_dir.resolve())
    out: list[tuple[str, str, PictureKind]] = []
    refused: list[tuple[Path, PrintdeckError]] = []
    files = folder_images(folder, "images", photo=False, refused=refused)  # a GIF said with the others
    names = _names_apart(files)
    keys, problems = _checked(files)
    refused += [(f, problems[f]) for f in files if f in problems]  # every bad picture said at once, by name
    for f in files:
        if f in problems:
            continue
        kind = keys[f]
        if inside:
            rel = Path(os.path.relpath(f.resolve(), theme_dir.resolve())).as_posix()
        else:
            rel = f"{PICTURES_FOLDER}/{f.name}"
            copies.append((f, theme_dir / PICTURES_FOLDER / f.name))
        out.append((rel, names[f], kind))
    return out, refused


def refusal(folder: Path, refused: list[tuple[Path, PrintdeckError]]) -> PrintdeckError:
    """The one error saying every picture of ``folder`` that cannot be used (``refused``,
    as :func:`image_entries` gives them): one picture's own error, or all in one line."""
    if len(refused) == 1:
        return refused[0][1]
    return argument_error("images", refused_line(refused), "or leave them out of the folder", source=folder)


class LeftOutWarning(UserWarning):
    """``init --images`` left pictures it cannot use out of the theme (each named, with why)."""


def warn_left_out(refused: list[tuple[Path, PrintdeckError]]) -> None:
    """Warn that the pictures ``refused`` are left out of the new theme: those that cannot be
    used, each with its problem and fix (:func:`~printdeck.theme.symbol_files.refused_line`);
    copies of a picture the theme holds, each with its original.

    Warns:
        LeftOutWarning: One line for the pictures that cannot be used, one for the copies.
    """
    copies = [(f, exc) for f, exc in refused if exc.code == SAME_PICTURE]
    unusable = [(f, exc) for f, exc in refused if exc.code != SAME_PICTURE]
    if unusable:
        them = "it" if len(unusable) == 1 else "them"
        line = refused_line(unusable)
        text = f"images: {line}; init left {them} out of the theme (add {them} to its symbols once fixed)"
        warnings.warn(text, LeftOutWarning, stacklevel=3)
    if copies:
        said = ", ".join(f"{shown(f.name)} ({exc.problem.removeprefix('is ')})" for f, exc in copies[:SAID_PICTURES])
        more = f" and {len(copies) - SAID_PICTURES} more" if len(copies) > SAID_PICTURES else ""
        word = "a copy" if len(copies) == 1 else f"{len(copies)} copies"
        text = f"images: left out {word} of pictures the theme holds: {said}{more}"
        warnings.warn(text, LeftOutWarning, stacklevel=3)


def _checked(files: list[Path]) -> tuple[dict[Path, PictureKind], dict[Path, PrintdeckError]]:
    """Each picture's entry (:func:`_picture_key`), and the refusal of each picture that
    cannot be used: one printdeck cannot print, or a copy of another (:func:`_copies`), as
    the theme's load would refuse it."""
    keys: dict[Path, PictureKind] = {}
    digests: dict[Path, tuple[str, ...]] = {}
    problems: dict[Path, PrintdeckError] = {}
    for f in files:
        try:
            keys[f], digests[f] = _picture_key(f)
        except PrintdeckError as exc:
            problems[f] = exc
    for f, original in _copies(digests).items():
        problems[f] = _same_picture(f, original)
    return keys, problems


def _copies(digests: dict[Path, tuple[str, ...]]) -> dict[Path, Path]:
    """Each picture of ``digests`` (its fingerprints: file bytes, decoded pixels) that is
    another's copy, with that other: of the pictures sharing a fingerprint the one kept is
    the original (:func:`~printdeck.theme.theme_paths.original_first`: ``p1.jpg``, not ``p1
    copy.jpg``), every other one its copy."""
    first_of: dict[str, Path] = {}  # a fingerprint -> the picture kept with it
    copies: dict[Path, Path] = {}
    for f in sorted(digests, key=original_first):
        original = next((first_of[d] for d in digests[f] if d in first_of), None)
        if original is not None:
            copies[f] = original
        else:
            first_of.update(dict.fromkeys(digests[f], f))
    return copies


def _names_apart(files: list[Path]) -> dict[Path, str]:
    """Each picture's :func:`picture_name`; where two come out alike for the emoji left out
    (``Noël 🎂`` and ``Noël 🎄``), those say their emoji by name (``Noël birthday cake``)."""
    names = {f: picture_name(f) for f in files}
    seen: dict[str, int] = {}
    for name in names.values():
        seen[name.casefold()] = seen.get(name.casefold(), 0) + 1
    for f, name in names.items():
        if seen[name.casefold()] > 1 and name != name_from_file(f):
            names[f] = _spelled_out(name_from_file(f)) or name
    return names


def _spelled_out(text: str) -> str:
    """``text`` with each emoji replaced by its English name (``Noël 🎂``: ``Noël birthday
    cake``) and other pictographs left out, its spaces tidied."""
    for found in emoji_in(text):
        text = text.replace(found, f" {emoji_name(found) or ''} ")
    return _without_pictographs(text)


def picture_name(f: Path) -> str:
    """A picture's name as ``init`` writes it: its file's (:func:`name_from_file`) without the
    emoji and other pictographs no font prints in a legend (``Mémé 🎂 Noël``: ``Mémé Noël``);
    letters of every script, digits, spaces and punctuation are kept. A name of emoji alone
    is their English names (``🎂.jpg``: ``birthday cake``); of other pictographs alone, the
    file's name as before."""
    name = name_from_file(f)
    kept = _without_pictographs(name)
    if kept:
        return kept
    return " ".join(filter(None, (emoji_name(found) for found in emoji_in(name)))) or name


_EMOJI_PARTS = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3", *map(chr, range(0xE0020, 0xE0080))}
"""Characters that only join or style an emoji (zero-width joiner, variation selectors, keycap, tags)."""


def _is_pictograph(c: str) -> bool:
    """Whether ``c`` is a picture, not text: one of Unicode's "other symbols" past Latin-1
    (★, ☂; the degree sign stays), a private-use or unassigned character, or part of an emoji."""
    category = unicodedata.category(c)
    return (category == "So" and ord(c) > 0xFF) or category in ("Co", "Cn") or c in _EMOJI_PARTS


def _without_pictographs(text: str) -> str:
    """``text`` without its emoji (whole sequences) and pictographs (:func:`_is_pictograph`),
    its spaces tidied."""
    for found in emoji_in(text):
        text = text.replace(found, " ")
    return " ".join("".join(" " if _is_pictograph(c) else c for c in text).split())


def _picture_key(f: Path) -> tuple[PictureKind, tuple[str, ...]]:
    """A picture file's entry (:func:`~printdeck.theme.picture_kind.picture_kind`: ``photo``
    for an opaque raster, else ``image``, with its background removed when plain and upright
    when it shows a face) and its check's fingerprints (the theme's load refuses two
    pictures that share one).

    Raises:
        PrintdeckError: The file is not a picture printdeck can print (its check's words).
    """
    if IMAGE_SUFFIXES[f.suffix.lower()] != "raster":
        check = check_svg_file(f, "images")  # no script, outside reference... (printdeck check's words)
        _check_shows(f, "svg")
        return PictureKind("image"), check.digests
    check = check_raster_file(f, "images")
    kind = picture_kind(f.name, f.read_bytes())  # as the studio makes its entry
    if kind.key == "image":
        _check_shows(f, "raster")
    return kind, check.digests


def _same_picture(f: Path, original: Path) -> PrintdeckError:
    """The refusal of picture ``f``, the same picture as ``original`` (its file or its pixels)."""
    return argument_error(
        "images", f"is the same picture as {shown(original)}", "remove one of the two", source=f, code=SAME_PICTURE
    )


SHOWN_ON = "#ffffff"
"""The card colour a new theme has (``card.background``'s default), which its pictures must show on."""


def _check_shows(f: Path, kind: SymbolKind) -> None:
    """Refuse an icon or cut-out that shows no ink on a white card (white, or transparent),
    which ``check`` and ``build`` would refuse in the theme written.

    Raises:
        PrintdeckError: Its ink is the card's colour (or it has none).
    """
    raster = rasterise_longest(SymbolSpec(id=0, name=f.stem, kind=kind, source=f.name, path=f), PROOF_PX, 8)
    if float(visible_ink(raster, SHOWN_ON).mean()) < MIN_VISIBLE_SHARE:
        raise argument_error(
            "images",
            f"{shown(f)} shows no visible ink on a new theme's white card (white or transparent artwork)",
            "give it colour, or leave it out and add it once card.background is a colour it shows on",
        )
