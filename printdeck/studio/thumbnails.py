"""Small pictures of the symbols' files for the page's tiles (turned upright as their
EXIF says, as printdeck turns them); SVGs are sent as they are."""

from __future__ import annotations

import functools
import io
from pathlib import Path

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
    from PIL import Image, ImageOps  # noqa: PLC0415 - only when a tile is drawn

    if path.suffix.lower() in (".heic", ".heif", ".avif"):
        import pillow_heif  # noqa: PLC0415

        pillow_heif.register_heif_opener()
    try:
        with Image.open(path) as image:
            if image.width * image.height > 60_000_000:
                raise ValueError(f"{path.name}: too many pixels for a thumbnail")
            image.draft("RGB", (THUMB_PX * 2, THUMB_PX * 2))
            upright = ImageOps.exif_transpose(image)
            upright.thumbnail((THUMB_PX, THUMB_PX))
            has_alpha = upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info
            out = io.BytesIO()
            if has_alpha:
                upright.convert("RGBA").save(out, format="PNG", optimize=False)
                return out.getvalue(), "image/png"
            upright.convert("RGB").save(out, format="JPEG", quality=85)
            return out.getvalue(), "image/jpeg"
    except (OSError, SyntaxError, Image.DecompressionBombError) as exc:
        raise ValueError(f"{path.name}: {exc}") from None
