"""Checking artwork files before a build.

Every file a theme names is opened and fully decoded once at load time, so a
missing, empty, truncated, corrupt or hostile file stops the build before any
output is written. SVGs are parsed with defusedxml (no DTDs, entities or
external references) and may refer only to their own elements (``#id``) or to
embedded ``data:`` URIs. Rasters are refused above ``MAX_PIXELS`` before their
pixels are decoded (decompression bombs).

Symbols are drawn by :mod:`printdeck.artwork`.
"""

from __future__ import annotations

import hashlib
import io
import json
import stat
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

import numpy as np
from defusedxml import DefusedXmlException, ElementTree as SafeET

from printdeck.artwork import MAX_IMAGE_BYTES, MAX_SVG_BYTES, shipped_svg_size, structure_checked
from printdeck.cache import cache_dir, code_digest, entry_key, file_digest, read_entry, write_entry
from printdeck.errors import PrintdeckError, key_error, shown
from printdeck.fileio import read_limited

MIN_SIDE_PX = 8
CHECK_DRAFT_PX = 256
"""A JPEG is checked decoded at the smallest scale (JPEG ``draft``, down to 1/8) that keeps this
many pixels on its longer side: every byte of it is still read and entropy-decoded (a
truncated or corrupt file is refused alike, one cut short even where its end marker was
put back: :func:`~printdeck.artwork.open_jpeg_strict`), and its pixels' fingerprint, which finds the
same picture under other bytes, costs a small copy's digest, not a 12-megapixel one's."""


@dataclass(frozen=True)
class FileCheck:
    """What checking one artwork file found.

    Attributes:
        kind: ``svg`` or ``raster``.
        size_px: (width, height) of a raster; the viewBox size of an SVG.
        has_alpha: Whether a raster has transparent pixels.
        digests: Content fingerprints (file bytes; decoded pixels) for duplicate checks.
        deferred: An SVG only read and fingerprinted (``check_svg_file(..., defer=True)``):
            its structure check waits until a deck uses it; ``size_px`` is then unknown (0, 0).
    """

    kind: str
    size_px: tuple[float, float]
    has_alpha: bool
    digests: tuple[str, ...]
    deferred: bool = False


_RASTER_CHECKS: dict[tuple[Path, int, int], FileCheck] = {}
"""Files already decoded whole in this process, by (resolved path, size, mtime in ns): a
theme loaded again (every edit in the studio) does not decode its photos again."""
MAX_REMEMBERED_CHECKS = 4096


def check_raster_file(path: Path, where: str) -> FileCheck:
    """Fully decode a PNG, JPEG, WebP, HEIC/HEIF or AVIF file (once per file version and
    process: an unchanged file's check is remembered, and a passed check is kept in the
    disk cache, folder ``rasterchecks``, by the file's bytes and this code, so the next
    build decodes none of the photos it checked before).

    Args:
        path: The image file.
        where: Theme key naming it (``symbols.3.image``), for messages.

    Returns:
        Size, transparency and fingerprints.

    Raises:
        PrintdeckError: Missing, unreadable, empty, too large, not an image format above,
            truncated or corrupt, a decompression bomb, tiny, or fully transparent.
    """
    try:
        info = path.stat()
        key: tuple[Path, int, int] | None = (path.resolve(), info.st_size, info.st_mtime_ns)
    except OSError:  # read_limited says what is wrong, in the usual words
        key = None
    if key is not None and key in _RASTER_CHECKS:
        return _RASTER_CHECKS[key]
    check = _stored_check(path) if key is not None else None
    if check is None:
        check = _decoded_check(path, where)
        _store_check(path, check)
    if key is not None:
        if len(_RASTER_CHECKS) >= MAX_REMEMBERED_CHECKS:
            _RASTER_CHECKS.clear()
        _RASTER_CHECKS[key] = check
    return check


def _raster_key(path: Path) -> str | None:
    """The disk cache key of a raster file's check: its bytes' digest and this code (None
    for anything but a regular file of at most :data:`MAX_IMAGE_BYTES`: a pipe would block)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_IMAGE_BYTES:
            return None
        return entry_key(file_digest(path), code_digest(__name__, "printdeck.artwork.decode"))
    except (PrintdeckError, OSError):
        return None


def _stored_check(path: Path) -> FileCheck | None:
    """The check of these very bytes from an earlier run, if it passed and is cached."""
    folder = cache_dir("rasterchecks")
    key = _raster_key(path) if folder is not None else None
    text = read_entry(folder / f"{key}.json") if folder is not None and key is not None else None
    try:
        data = json.loads(text or "null")
        w, h = (float(v) for v in data["size_px"])
        digests = tuple(str(d) for d in data["digests"])
        if not (MIN_SIDE_PX <= w < 1e6 and MIN_SIDE_PX <= h < 1e6) or len(digests) != 2:
            return None
        return FileCheck("raster", (w, h), bool(data["has_alpha"]), digests)
    except (TypeError, ValueError, KeyError):
        return None


def _store_check(path: Path, check: FileCheck) -> None:
    """Keep a passed check in the disk cache (see :func:`check_raster_file`)."""
    folder = cache_dir("rasterchecks")
    key = _raster_key(path) if folder is not None else None
    if folder is not None and key is not None:
        data = {"size_px": list(check.size_px), "has_alpha": check.has_alpha, "digests": list(check.digests)}
        write_entry(folder / f"{key}.json", json.dumps(data))


def _decoded_check(path: Path, where: str) -> FileCheck:
    """Decode the whole file and measure it (see :func:`check_raster_file`)."""
    from PIL import Image  # noqa: PLC0415 - image decoders only when a picture is checked

    from printdeck.artwork import keep_stand_in, open_jpeg_strict, open_raster  # noqa: PLC0415

    data = read_limited(path, where, MAX_IMAGE_BYTES)
    image = open_jpeg_strict(data, path, where, CHECK_DRAFT_PX) or open_raster(data, path, where, CHECK_DRAFT_PX)
    with Image.open(io.BytesIO(data)) as header:  # read whole above: the size it has, not the draft's
        width, height = header.size
    if min(width, height) < MIN_SIDE_PX:
        raise key_error(
            f"{where}",
            f"{path} is only {width}x{height} pixels; give an image at least {MIN_SIDE_PX} pixels a side",
        )
    has_alpha = False
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        alpha = np.asarray(image.convert("RGBA").getchannel("A"))
        if not alpha.any():
            raise key_error(f"{where}", f"{path} is fully transparent, so nothing would show; check the file")
        has_alpha = bool((alpha < 255).any())
    pixels = hashlib.sha256(f"{image.mode}{image.size}".encode() + image.tobytes()).hexdigest()
    keep_stand_in(data, path, where, image)  # a HEIC/AVIF decoded whole here is not decoded again
    return FileCheck("raster", (float(width), float(height)), has_alpha, (hashlib.sha256(data).hexdigest(), pixels))


def _svg_size(root: Element, path: Path, where: str) -> tuple[float, float]:
    """The size the SVG declares (:func:`printdeck.artwork.declared_svg_size`), required here:
    printdeck sizes an SVG by its box, not by what resvg would guess."""
    from printdeck.artwork import declared_svg_size  # noqa: PLC0415 - resvg only when an SVG is checked

    size = declared_svg_size(root)
    if size is not None:
        return size
    box = root.get("viewBox")
    if box is not None:
        raise key_error(f"{where}", f"{path} has a bad viewBox {box!r}; give four numbers with positive size")
    raise key_error(f"{where}", f"{path} has no viewBox (nor width and height); add a viewBox")


def check_svg_file(path: Path, where: str, defer: bool = False) -> FileCheck:
    """Parse an SVG safely and check it draws something.

    Args:
        path: The SVG file.
        where: Theme key naming it, for messages.
        defer: Only read and fingerprint a file not checked before (``deferred`` in the
            result): a build checks the rest of the files its deck uses, once it knows them.

    Returns:
        The viewBox size and the file's fingerprint.

    Raises:
        PrintdeckError: Missing, not a regular file, unreadable, empty, too large,
            not well-formed XML, too deep, too many elements, absurd or NaN
            coordinates (see :func:`~printdeck.artwork.svg_structure_check`), has a DTD/entities/external
            references, not an ``<svg>``, refers to outside files or URLs, has no
            size, or cannot be rendered.
    """
    data = read_limited(path, where, MAX_SVG_BYTES)  # a regular, non-empty file only, never blocking
    digest = hashlib.sha256(data).hexdigest()
    passed = _passed_before(digest)
    if passed is not None:  # these very bytes passed every check below in an earlier run
        return FileCheck("svg", passed, True, (digest,))
    if defer:
        return FileCheck("svg", (0.0, 0.0), True, (digest,), deferred=True)
    structure_checked(data, path, where)  # before defusedxml and resvg see it; drawing it will not again
    try:
        root = SafeET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise key_error(
            f"{where}", f"{path} declares a DTD or entities, which are not allowed; remove the <!DOCTYPE ...> part"
        ) from None
    except (SafeET.ParseError, ValueError, UnicodeError) as exc:
        raise key_error(f"{where}", f"{path} is not a well-formed SVG ({exc}); re-export it") from None
    if not str(root.tag).rsplit("}", 1)[-1] == "svg":
        raise key_error(f"{where}", f"{path} is XML but not an SVG (root <{root.tag}>); give an SVG image")
    size = _svg_size(root, path, where)
    _check_draws(path, size, where)
    folder = cache_dir("svgchecks")
    if folder is not None:
        write_entry(folder / f"{_check_key(digest)}.json", json.dumps(list(size)))
    return FileCheck("svg", size, True, (digest,))


def _check_key(digest: str) -> str:
    """Cache key of an SVG's passed checks: its bytes and the checking code (this module and
    the artwork package, whose SVG checks and drawing it relies on)."""
    return entry_key(digest, code_digest(__name__, "printdeck.artwork"))


def _passed_before(digest: str) -> tuple[float, float] | None:
    """The viewBox size of an SVG whose bytes passed :func:`check_svg_file` before, if
    cached, or when printdeck was made (a bundled picture: :mod:`printdeck.artwork.bundled_checks`)."""
    key = _check_key(digest)
    shipped = shipped_svg_size(key)
    if shipped is not None:
        return shipped
    folder = cache_dir("svgchecks")
    text = read_entry(folder / f"{key}.json") if folder is not None else None
    try:
        w, h = (float(v) for v in json.loads(text or "null"))
    except (TypeError, ValueError):
        return None
    return (w, h) if 0 < w < 1e9 and 0 < h < 1e9 else None


def _check_draws(path: Path, size: tuple[float, float], where: str) -> None:
    """Draw the SVG small (32 px, as printdeck draws it: :func:`printdeck.artwork.svg.svg_pixels`)
    and require some ink."""
    from printdeck.artwork import svg_pixels  # noqa: PLC0415 - resvg only when an SVG is checked

    scale = 32 / max(size)
    try:
        image = svg_pixels(path, max(1, round(size[0] * scale)), max(1, round(size[1] * scale)))
    except PrintdeckError as exc:
        raise key_error(f"{where}", f"{exc}") from None
    if not np.asarray(image.getchannel("A")).any():
        raise key_error(f"{where}", f"{shown(path)} draws nothing visible; check the file")
