"""Small pictures of the symbols' files for the page's tiles (turned upright as their
EXIF says, as printdeck turns them); SVGs are sent as they are. A picture printed without
its plain background (an image with ``remove_background``) is shown as it prints."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any

import printdeck

THUMB_PX = 360
SVG_TYPE = "image/svg+xml"


def thumbnail(path: Path) -> tuple[bytes, str]:
    """The thumbnail of a picture file: (bytes, media type).

    Raises:
        OSError: the file cannot be read.
        ValueError: the file is not a picture Pillow can open.
    """
    stat = path.stat()
    return _cached(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=512)
def _cached(path: Path, mtime_ns: int, size: int) -> tuple[bytes, str]:
    if path.suffix.lower() == ".svg":
        return path.read_bytes(), SVG_TYPE
    try:
        upright = printdeck.upright_picture(path, THUMB_PX)  # as it prints: upright, real tones
    except printdeck.PrintdeckError as exc:
        raise ValueError(str(exc)) from None
    out = io.BytesIO()
    lowest_alpha, _ = upright.getchannel("A").getextrema()
    if isinstance(lowest_alpha, (int, float)) and lowest_alpha < 255:
        upright.save(out, format="PNG", optimize=False)
        return out.getvalue(), "image/png"
    upright.convert("RGB").save(out, format="JPEG", quality=85)
    return out.getvalue(), "image/jpeg"


def printed_thumbnail(data: dict[str, Any], folder: Path, path: Path) -> tuple[bytes, str]:
    """The thumbnail of the picture at ``path`` of the theme item ``data`` as printdeck prints
    it (:func:`printdeck.symbol_picture`: clip art without its white), a PNG.

    Raises:
        OSError: the file cannot be read.
        ValueError: the item is refused, or its picture cannot be drawn.
    """
    stat = path.stat()
    return _printed(json.dumps(data, sort_keys=True), folder, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=256)
def _printed(data: str, folder: Path, mtime_ns: int, size: int) -> tuple[bytes, str]:
    from printdeck.studio.crops import alone_theme  # noqa: PLC0415 - crops imports the workspace

    theme = alone_theme(json.loads(data), folder)
    if theme is None:
        raise ValueError("the picture is refused")
    try:
        picture = printdeck.symbol_picture(theme.symbols[0], THUMB_PX)
    except printdeck.PrintdeckError as exc:
        raise ValueError(str(exc)) from None
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=False)
    return out.getvalue(), "image/png"
