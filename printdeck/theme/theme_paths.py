"""Where a theme's files are: a path resolved against the theme's folder or the bundled
assets (``@assets/...``), held inside the folders a theme may read, and the picture kinds
printdeck reads by their suffix."""

from __future__ import annotations

import re
from pathlib import Path

from printdeck.errors import PrintdeckError, key_error, shown
from printdeck.resources import data_root

BUNDLED_PREFIX = "@assets/"
IMAGE_SUFFIXES = {
    ".svg": "svg",
    ".png": "raster",
    ".jpg": "raster",
    ".jpeg": "raster",
    ".webp": "raster",
    ".heic": "raster",
    ".heif": "raster",
    ".avif": "raster",
}
UNSUPPORTED_SUFFIXES = {".gif", ".bmp", ".tif", ".tiff", ".jp2", ".ico", ".psd", ".svgz", ".eps", ".ai", ".pdf"}


def resolve_path(raw: str, base: Path, where: str = "") -> tuple[Path, str]:
    """Return (absolute path, manifest ``source``) for a path written in a theme.

    ``@assets/...`` names the bundled artwork; other relative paths are relative to
    ``base`` (the theme file's folder); ``~`` is expanded.

    Args:
        raw: The path as written in the theme.
        base: The theme file's folder.
        where: The theme key that holds it (``symbols.3.image``), for messages.

    Raises:
        PrintdeckError: The path holds a NUL or an unencodable character, or a
            name too long for the file system.
    """
    try:
        if "\x00" in raw or len(raw.encode("utf-8")) > 4000:
            raise ValueError("NUL character or too long")
        if raw.startswith(BUNDLED_PREFIX):
            rel = raw[len(BUNDLED_PREFIX) :]
            path, source = data_root("assets") / rel, "assets/" + rel
        else:
            path = (base / Path(raw).expanduser()).resolve()
            try:
                source = path.relative_to(base.resolve()).as_posix()
            except ValueError:
                source = path.as_posix()
        if any(len(part.encode("utf-8")) > 255 for part in path.parts):
            raise ValueError("a name longer than 255 bytes")
    except (ValueError, OSError, RuntimeError) as exc:
        text = f"path {raw[:60]!r} is not a usable file name ({exc}); fix the path"
        raise (key_error(where, text) if where else PrintdeckError(text)) from None
    return path, source


def allowed_roots(base: Path, allow_outside: bool = False) -> tuple[Path, ...] | None:
    """The folders a theme may read files from: its own folder and the bundled
    ``assets/`` (None, anywhere, with ``allow_outside``)."""
    if allow_outside:
        return None
    return (base.resolve(), data_root("assets").resolve())


def check_inside(path: Path, where: str, roots: tuple[Path, ...] | None) -> None:
    """Refuse a file the theme names (after following every symlink) outside ``roots``.

    Args:
        path: The file or folder, as resolved from the theme.
        where: The theme key naming it, for the message.
        roots: From :func:`allowed_roots`; None allows any path.

    Raises:
        PrintdeckError: The path, or a symlink on it, leads outside the theme folder
            and the bundled assets (or cannot be resolved: a symlink loop).
    """
    if roots is None:
        return
    try:
        real = path.resolve()
    except (OSError, RuntimeError, ValueError):
        raise key_error(f"{where}", f"{shown(path)} cannot be resolved (a symlink loop?); fix the path") from None
    if not any(real == root or real.is_relative_to(root) for root in roots):
        raise key_error(
            f"{where}",
            f"{shown(path)} is outside the theme folder {shown(roots[0])}; copy it into "
            "the theme folder, or pass --allow-outside to read it where it is",
        )


def name_from_file(path: Path) -> str:
    """A symbol's default name: the file name without suffix, ``-``/``_`` as spaces."""
    return " ".join(path.stem.replace("-", " ").replace("_", " ").split()) or path.stem


COPY_NAME = re.compile(r".+?(?: copy(?: [0-9]+)?| \([0-9]+\)| - Copy(?: \([0-9]+\))?)")
"""The name (without suffix) a system gives a copy of a file beside it: macOS Finder's
``p1 copy`` and ``p1 copy 2``, Windows Explorer's ``p1 - Copy`` and ``p1 - Copy (2)``, and
``p1 (1)`` (Windows, and a browser saving a file a second time)."""


def is_copy_name(path: Path) -> bool:
    """Whether ``path``'s name is one a system gives a copy of another file (:data:`COPY_NAME`)."""
    return COPY_NAME.fullmatch(path.stem) is not None


def original_first(path: Path) -> tuple[bool, int, str]:
    """A sort key putting first, of files holding one picture, the one to keep: a name that
    is not a system's copy name (:func:`is_copy_name`), else the shorter name, else the
    first by name (``p1.jpg`` before ``p1 copy.jpg``, though that sorts first by name)."""
    return is_copy_name(path), len(path.name), path.name


CASE_NOTE = "(capital letters count in file names here)"
"""Said with a path found in other capital letters."""


def case_twin(path: Path) -> Path | None:
    """``path`` as it is on disk when it is there only in other capital letters (each part
    from the deepest folder that is there matched regardless of case; one match a part),
    else None (also when it is there as written)."""
    if path.exists():
        return None
    base, rest = path, list[str]()
    while not base.exists():
        if base.parent == base:
            return None
        base, rest = base.parent, [base.name, *rest]
    for part in rest:
        try:
            matches = [p for p in base.iterdir() if p.name.casefold() == part.casefold()]
        except OSError:
            return None
        if len(matches) != 1:
            return None
        base = matches[0]
    return base


def as_written(raw: str, found: Path) -> str:
    """``found`` as the theme would write it: ``raw``'s own parts, their last ones replaced
    by ``found``'s (``pics/cat.svg`` found as ``Pics/Cat.svg``)."""
    written, real = list(Path(raw).parts), found.parts
    for k in range(1, min(len(written), len(real)) + 1):  # from the end, while the parts agree but for case
        if written[-k].casefold() != real[-k].casefold():
            break
        written[-k] = real[-k]
    return Path(*written).as_posix()
