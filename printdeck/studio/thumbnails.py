"""Small pictures of the symbols' files for the page's tiles (turned upright as their
EXIF says, as printdeck turns them); SVGs are sent as they are."""

from __future__ import annotations

import functools
import io
from pathlib import Path

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
