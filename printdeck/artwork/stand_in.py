"""A HEIC/HEIF or AVIF picture's stand-in: its pixels decoded once, kept as a JPEG.

A 12-megapixel HEIC takes libheif about 0.6 s to decode, always whole (the format has
no reduced decoding, as JPEG's ``draft`` is), and a photo is drawn at several sizes in
a build: its check, its crop search, its proof, silhouette and look, its master, its
print. Each would decode the file again. Instead the first decode, the one the theme's
file check makes anyway, is written as a JPEG (:data:`STAND_IN_QUALITY`) of the upright
sRGB pixels, kept in the disk cache by the file's bytes; every drawing of the picture is
then made from those bytes, decoded with only the pixels it needs (JPEG ``draft``), as a
JPEG photo is. A picture is always drawn from its stand-in, made now or read back, never
from the first decode, so a build with the cache and one without draw the same pixels.

A worker process can draw a picture whose stand-in is on disk without loading libheif,
whose decoder threads do not survive a ``fork`` (:func:`stand_in_stored`). A picture
with transparency has no stand-in (JPEG has none): it is decoded whole each time.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from printdeck.cache import cache_dir, code_digest, entry_key, file_digest, read_jpeg_entry, write_entry
from printdeck.choices import MAX_IMAGE_BYTES
from printdeck.errors import PrintdeckError

__all__ = ["STAND_IN_QUALITY", "forget_stand_ins", "is_heif_or_avif", "stand_in_bytes", "stand_in_stored"]

STAND_IN_QUALITY = 95
"""JPEG quality of a stand-in (chroma not subsampled: a thin coloured edge keeps its colour)."""
HEIF_BRANDS = (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypmsf1", b"ftypavif", b"ftypheif")
"""Bytes 4-12 of a HEIC/HEIF or AVIF file (its ``ftyp`` box and major brand)."""
MAX_KEPT = 4
"""Stand-ins kept in this process, the latest used (for a build without the disk cache)."""

_KEPT: OrderedDict[str, bytes | None] = OrderedDict()
_KEPT_LOCK = threading.Lock()  # the studio draws pictures on several threads


def is_heif_or_avif(data: bytes) -> bool:
    """Whether picture bytes (the first 12 at least) are HEIC/HEIF or AVIF (:data:`HEIF_BRANDS`):
    decoded only whole, so drawn from a stand-in."""
    return data[4:12] in HEIF_BRANDS


def _key(digest: str) -> str:
    """The disk cache key of the stand-in of the file whose bytes have SHA-256 ``digest``."""
    code = code_digest(__name__, "printdeck.artwork.decode", "printdeck.artwork.colour")  # what draws it
    return entry_key(digest, "stand-in", STAND_IN_QUALITY, code)


def _stored(key: str) -> bytes | None:
    """The stand-in kept in the disk cache under ``key``, if whole (a JPEG's first and last marker)."""
    folder = cache_dir("pictures")
    return read_jpeg_entry(folder / f"{key}.jpg", MAX_IMAGE_BYTES) if folder is not None else None


def stand_in_stored(path: Path) -> bool:
    """Whether the picture file's stand-in is in the disk cache, so drawing it decodes a
    JPEG, never the file (False for a file of another format, or unreadable)."""
    try:
        return _stored(_key(file_digest(path))) is not None
    except PrintdeckError:
        return False


def stand_in_bytes(data: bytes, upright: Callable[[], Image.Image]) -> bytes | None:
    """The stand-in of the picture whose file holds ``data`` (HEIC/HEIF or AVIF): JPEG bytes
    of its upright sRGB pixels; None for any other format, and for a picture with
    transparency or of a mode JPEG cannot hold (such a picture is decoded whole).

    Read from this process's memory or the disk cache (folder ``pictures``), else made
    from ``upright()`` (the file decoded whole, in sRGB, its EXIF turn applied: see
    :func:`printdeck.artwork.decode.keep_stand_in`) and kept in both.

    Raises:
        PrintdeckError: ``upright()`` cannot decode the file.
    """
    if not is_heif_or_avif(data):
        return None
    key = _key(hashlib.sha256(data).hexdigest())
    with _KEPT_LOCK:
        if key in _KEPT:
            _KEPT.move_to_end(key)
            return _KEPT[key]
    made = _stored(key)
    if made is None:
        made = _encoded(upright())
        folder = cache_dir("pictures")
        if made is not None and folder is not None:
            write_entry(folder / f"{key}.jpg", made)
    with _KEPT_LOCK:
        _KEPT[key] = made
        while len(_KEPT) > MAX_KEPT:
            _KEPT.popitem(last=False)
    return made


def _encoded(upright: Image.Image) -> bytes | None:
    """JPEG bytes of the upright sRGB picture, with no EXIF or profile; None when it is not
    RGB or greyscale (JPEG holds no transparency)."""
    if upright.mode not in ("RGB", "L"):
        return None
    out = io.BytesIO()
    upright.save(out, "JPEG", quality=STAND_IN_QUALITY, subsampling="4:4:4")
    return out.getvalue()


def forget_stand_ins() -> None:
    """Drop the stand-ins kept in this process (tests; a cache folder changed)."""
    with _KEPT_LOCK:
        _KEPT.clear()
