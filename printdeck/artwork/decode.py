"""Picture files decoded: bounded (no bombs, no broken files), upright (the EXIF turn), in
sRGB (an embedded profile honoured), and only as many pixels as a use needs.

:func:`upright_file` gives a raster file as printdeck draws it; inside :func:`shared_decodes`
a file is decoded once a size. A HEIC/HEIF or AVIF file is decoded whole once and drawn
from its stand-in (:mod:`printdeck.artwork.stand_in`).
"""

from __future__ import annotations

import hashlib
import io
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

from printdeck.artwork.colour import to_srgb
from printdeck.artwork.stand_in import is_heif_or_avif, stand_in_bytes, stand_in_stored
from printdeck.cache import cache_dir
from printdeck.choices import MAX_IMAGE_BYTES, PHOTO_FORMATS
from printdeck.errors import CUT_SHORT_PICTURE, UNREADABLE_PICTURE, PrintdeckError, key_error, shown
from printdeck.fileio import read_limited

MAX_PIXELS = 60_000_000
"""Largest raster (width x height) decoded: a 48-megapixel phone photo fits."""
MAX_DRAFTED_PIXELS = 178_000_000
"""Largest JPEG (width x height) accepted where it is decoded scaled down (``draft``, by
libjpeg's DCT scaling, to at most :data:`MAX_PIXELS`): a 108-megapixel phone photo fits.
Under Pillow's decompression-bomb error (twice ``Image.MAX_IMAGE_PIXELS``, 179 megapixels);
over its mark (89.5 megapixels) Pillow warns (``DecompressionBombWarning``, a
``RuntimeWarning`` the command line does not show): such a JPEG is never decoded whole."""
EXIF_ORIENTATION = 0x0112
"""The EXIF tag saying how a picture is turned when shown (1 upright; 5-8 turn it a quarter)."""
RASTER_FORMATS = ["PNG", "JPEG", "WEBP", "HEIF", "AVIF"]
"""Formats a raster or photo symbol may be in (HEIC/HEIF through pillow-heif, AVIF through Pillow)."""

try:  # HEIC/HEIF photos (what iPhones save), read by libheif through pillow-heif
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:  # pragma: no cover - a dependency; only a broken install lacks it
    pass


def open_raster(data: bytes, path: Path, where: str, draft_px: int | None = None) -> Image.Image:
    """Open and fully decode raster bytes, refusing bombs and broken files.

    HEIC/HEIF and AVIF have no reduced decoding (JPEG's ``draft``), so their full
    decode is kept for the next call with the same bytes (two pictures at most): the
    check that decodes one makes its stand-in from the same decode
    (:func:`keep_stand_in`), and a picture without one (transparency) is not decoded
    again by its next use. Callers never change the image they get.

    Args:
        data: The file's bytes.
        path: The file (for messages).
        where: The theme key naming it (for messages).
        draft_px: Decode a JPEG reduced (Pillow ``draft``) to at least this many pixels on
            its longer side (the shorter in proportion).

    Raises:
        PrintdeckError: Not PNG/JPEG/WebP, truncated or corrupt, or over :data:`MAX_PIXELS`.
    """
    if is_heif_or_avif(data):
        return _decoded_once(hashlib.sha256(data).hexdigest(), data, str(path), where)
    return _decode(data, path, where, draft_px)


@lru_cache(maxsize=2)
def _decoded_once(digest: str, data: bytes, path: str, where: str) -> Image.Image:
    return _decode(data, Path(path), where, None)


def decoded_by_threads(path: Path) -> bool:
    """Whether drawing the picture file decodes it with a decoder that runs threads of its
    own (libheif, libavif): a HEIC/HEIF or AVIF file without a stand-in on disk
    (:func:`~printdeck.artwork.stand_in.stand_in_stored`). Such a photo is not worked on
    in a forked process, and :func:`forget_decodes` drops the decodes kept before a fork."""
    try:
        with path.open("rb") as file:
            head = file.read(12)
    except OSError:
        return False
    return is_heif_or_avif(head) and not stand_in_stored(path)


def forget_decodes() -> None:
    """Drop the HEIC/AVIF decodes kept for the next call (:func:`open_raster`), and with them
    their decoders: a forked process must never free a decoder whose threads it lacks."""
    _decoded_once.cache_clear()


def _decode(data: bytes, path: Path, where: str, draft_px: int | None) -> Image.Image:
    """:func:`open_raster` without the cache.

    No warning filter is changed here (``warnings.catch_warnings`` swaps process-wide
    state, and the studio decodes in request threads while a build records its warnings):
    a size Pillow warns about (over ``Image.MAX_IMAGE_PIXELS``) is over :data:`MAX_PIXELS`
    too: refused before a pixel is decoded, unless a JPEG decoded scaled down."""
    try:
        image = Image.open(io.BytesIO(data), formats=RASTER_FORMATS)
        drafted = draft_px is not None and image.format in ("JPEG", "MPO")
        _check_pixels(image, MAX_DRAFTED_PIXELS if drafted else MAX_PIXELS, path, where)
        if drafted:
            assert draft_px is not None
            image.draft("RGB", _draft_request(image.size, draft_px))
            _check_pixels(image, MAX_PIXELS, path, where)  # what is decoded: scaled down enough
        image.load()
    except PrintdeckError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        claimed = re.search(r"\((\d+) pixels\)", str(exc))  # Pillow says the size it read
        size = f"{int(claimed.group(1)) / 1e6:,.0f} megapixels" if claimed else "too many pixels"
        raise key_error(
            f"{where}",
            f"{path} is {size}, more than {MAX_DRAFTED_PIXELS // 1_000_000} megapixels; scale it down",
            code=UNREADABLE_PICTURE,
        ) from None
    except Image.UnidentifiedImageError:
        raise key_error(
            f"{where}",
            f"{shown(path)} is not a picture printdeck reads ({PHOTO_FORMATS}) (or it is "
            "corrupt); re-export it as PNG or JPEG",
            code=UNREADABLE_PICTURE,
        ) from None
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError, IndexError, TypeError) as exc:
        raise key_error(
            f"{where}",
            f"{path} is truncated or corrupt ({str(exc) or type(exc).__name__}); copy the file again from "
            "the phone, camera or page it came from, or open it in a photo editor and save it again",
            code=CUT_SHORT_PICTURE,
        ) from None
    return image


def _draft_request(size: tuple[int, int], draft_px: int) -> tuple[int, int]:
    """The size (width, height) to ask a JPEG of ``size`` for with ``draft_px`` wanted on its
    longer side: that, or half the JPEG's where it holds more than :data:`MAX_PIXELS` (a
    64-megapixel photo cropped close still decodes at a quarter of its pixels, 16 of them,
    more than a card prints)."""
    width, height = size
    longer = max(width, height)
    if width * height > MAX_PIXELS:
        draft_px = min(draft_px, longer // 2)
    return math.ceil(draft_px * width / longer), math.ceil(draft_px * height / longer)


def _check_pixels(image: Image.Image, most: int, path: Path, where: str) -> None:
    """Refuse a picture of more than ``most`` pixels (width x height, as opened or drafted).

    Raises:
        PrintdeckError: Keyed ``where``: its size and "scale it down".
    """
    if image.width * image.height > most:
        raise key_error(
            f"{where}",
            f"{path} is {image.width}x{image.height} pixels, more than {most // 1_000_000} megapixels; scale it down",
        )


def to_rgba(image: Image.Image) -> Image.Image:
    """Convert any Pillow mode to 8-bit RGBA with the picture's real tones.

    16- and 32-bit greyscale (``I;16``, ``I``) is scaled to 8 bits (Pillow's own
    conversion clips it, so a 16-bit PNG would print near-white); floating point
    (``F``) is scaled from its range; CMYK, palette (with transparency), ``LA``,
    ``PA`` and bilevel convert as Pillow does.
    """
    if image.mode.startswith("I;16") or image.mode in ("I", "F"):
        values = np.asarray(image, dtype=np.float64)
        top = 65535.0 if image.mode.startswith("I;16") or values.max() > 255 else 255.0
        if image.mode == "F":
            top = max(float(values.max()), 1e-12) if values.max() > 1.0 else 1.0
        grey = np.clip(np.round(values / top * 255.0), 0, 255).astype(np.uint8)
        return Image.fromarray(grey).convert("RGBA")
    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("PA")
    return image.convert("RGBA")


def exif_orientation(image: Image.Image) -> int | None:
    """The picture's EXIF orientation (:data:`EXIF_ORIENTATION`): 1 (upright, also when the
    picture has none) to 8; the one place printdeck reads the tag."""
    orientation: int | None = image.getexif().get(EXIF_ORIENTATION, 1)
    return orientation


def is_upright(image: Image.Image) -> bool:
    """Whether the picture is shown as stored (EXIF orientation 1, or none)."""
    return exif_orientation(image) in (1, None)


def shown_size(image: Image.Image) -> tuple[int, int]:
    """Pixel (width, height) of an opened picture as shown (EXIF orientations 5-8 swap them)."""
    w, h = image.size
    return (h, w) if exif_orientation(image) in (5, 6, 7, 8) else (w, h)


def oriented_size(path: Path) -> tuple[int, int]:
    """Pixel (width, height) of an image file as displayed (:func:`shown_size`).

    Raises:
        PrintdeckError: The file is not an image Pillow can read.
    """
    try:
        with Image.open(path) as im:
            return shown_size(im)
    except (OSError, Image.DecompressionBombError, ValueError) as exc:
        raise PrintdeckError(f"{path}: not a readable image ({exc}); give a picture ({PHOTO_FORMATS})") from None


def upright_file(path: Path, max_px: int, where: str) -> Image.Image:
    """A picture file as printdeck draws it: EXIF-oriented, 8-bit RGBA (:func:`to_rgba`),
    scaled so its longer side is ``max_px``; ``where`` names it in messages.

    Raises:
        PrintdeckError: The file is missing, unreadable, too large or not an image.
    """
    image = upright_decoded(path, max_px, where)
    scale = max_px / max(image.size)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return to_rgba(image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0))  # exact enough, much faster


_SHARED: dict[tuple[str, tuple[int, int]], Image.Image] | None = None
"""Upright decodes kept inside :func:`shared_decodes` (None outside it), by the file's
digest and the decoded size."""


@contextmanager
def shared_decodes() -> Iterator[None]:
    """Inside, a picture decoded at one size is decoded once: every later call that would
    decode the same bytes to the same size (the same JPEG ``draft`` scale) gets the same
    upright picture, so the pixels are the very ones a fresh decode gives. For one
    photo's work at a time (its crop search, rasters and master): the pictures are
    dropped on leaving. Not for threads sharing a process."""
    global _SHARED
    _SHARED = {}
    try:
        yield
    finally:
        _SHARED = None


def _draft_size(data: bytes, draft_px: int) -> tuple[int, int] | None:
    """The size a JPEG decodes to with ``draft_px`` asked (:func:`open_raster`), from its
    header; ``(0, 0)`` for other formats (decoded whole, whatever is asked); None for a
    JPEG header Pillow cannot read (the decode says why)."""
    if data[:3] != b"\xff\xd8\xff":
        return (0, 0)
    try:
        with Image.open(io.BytesIO(data), formats=["JPEG"]) as image:
            if image.width * image.height > MAX_DRAFTED_PIXELS:
                return None
            image.draft("RGB", _draft_request(image.size, draft_px))
            return image.size
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        return None


_STRICT_MODES = {"YCbCr": "RGB", "RGB": "RGB", "Gray": "L"}
"""Colour spaces of a JPEG :func:`open_jpeg_strict` decodes (Pillow's mode for each); a
CMYK or YCCK one is only checked there, and decoded by Pillow."""
_HUFFMAN_FRAMES = frozenset({0xC0, 0xC1, 0xC2})
"""JPEG frames (SOF markers) Pillow's decoder reads: baseline, extended sequential and
progressive, Huffman-coded. Arithmetic-coded and lossless ones (SOF3, SOF9-SOF15) it
refuses, and so must the check, which is left to it for them."""


def open_jpeg_strict(data: bytes, path: Path, where: str, draft_px: int) -> Image.Image | None:
    """A JPEG decoded as :func:`open_raster` with ``draft_px`` decodes it (the same pixels:
    libjpeg-turbo at the same scale), by simplejpeg with libjpeg's warnings taken as errors,
    so a file cut short is refused even where Pillow decodes it: one with an end marker
    after the cut (a broken copy, a recovered file) decodes without an error and prints its
    lost part grey.

    Returns:
        The decoded picture, mode ``RGB`` or ``L``; None for what :func:`open_raster` is to
        decode: not a JPEG, a header either decoder cannot read, a frame Pillow does not
        decode, a CMYK or YCCK JPEG (checked here all the same), or a warning that loses
        no pixels.

    Raises:
        PrintdeckError: The file is cut short (libjpeg: "premature end").
    """
    size = _draft_size(data, draft_px)
    if size is None or size == (0, 0) or _frame(data) not in _HUFFMAN_FRAMES:
        return None
    import simplejpeg  # noqa: PLC0415 - only when a JPEG is checked

    try:
        mode = _STRICT_MODES.get(simplejpeg.decode_jpeg_header(data)[2])
        colour = {"L": "GRAY", "RGB": "RGB"}.get(mode or "", "CMYK")
        pixels = simplejpeg.decode_jpeg(data, colour, strict=True, min_width=size[0], min_height=size[1])
    except ValueError as exc:
        if "premature end" not in str(exc).lower():
            return None
        raise key_error(
            f"{where}",
            f"{path} is truncated or corrupt (its image data ends early, so part of the picture may print grey "
            "or blurred); copy the file again from the phone, camera or page it came from, or open it in a "
            "photo editor and save it again as JPEG",
            code=CUT_SHORT_PICTURE,
        ) from None
    if mode is None or (pixels.shape[1], pixels.shape[0]) != size:
        return None
    return Image.fromarray(pixels[:, :, 0] if mode == "L" else pixels, mode)


def _frame(data: bytes) -> int | None:
    """The JPEG's frame marker (``0xC0``...``0xCF``: how it is coded), or None when the
    markers before it cannot be walked."""
    at = 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if marker == 0xFF:  # a fill byte before a marker
            at += 1
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # not DHT, JPG, DAC
            return marker
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return None


def upright_decoded(path: Path, need_px: int, where: str) -> Image.Image:
    """A picture file decoded with at least twice ``need_px`` pixels on its longer side
    where the source has them (JPEG ``draft``), in sRGB (an embedded profile honoured),
    EXIF-oriented, in a mode Pillow scales (RGB, RGBA, L or LA), not yet scaled; inside
    :func:`shared_decodes`, decoded once a size. A HEIC/HEIF or AVIF picture is decoded
    from its stand-in (:mod:`printdeck.artwork.stand_in`) where it has one."""
    data = read_limited(path, where, MAX_IMAGE_BYTES)
    if is_heif_or_avif(data):  # decoded whole once, then drawn from a JPEG
        data = stand_in_bytes(data, lambda: _upright(open_raster(data, path, where))) or data
    shared = _SHARED
    size = _draft_size(data, need_px * 2) if shared is not None else None
    key = (hashlib.sha256(data).hexdigest(), size) if size is not None else None
    if shared is not None and key is not None and key in shared:
        return shared[key]
    image = _upright(open_raster(data, path, where, draft_px=need_px * 2))
    if shared is not None and key is not None:
        shared[key] = image
    return image


def _upright(decoded: Image.Image) -> Image.Image:
    """A decoded picture in sRGB (an embedded profile honoured), in a mode Pillow scales
    (RGB, RGBA, L or LA), EXIF-oriented (the same object when nothing changes)."""
    image = to_srgb(decoded)
    if image.mode not in ("RGB", "RGBA", "L", "LA"):
        image = to_rgba(image)  # 16-bit, palette, CMYK...: convert before scaling
    if not is_upright(image):  # an upright picture is used as decoded: no copy of its pixels
        image = ImageOps.exif_transpose(image)
    return image


def keep_stand_in(data: bytes, path: Path, where: str, decoded: Image.Image) -> None:
    """Make the stand-in (:mod:`printdeck.artwork.stand_in`) of a HEIC/HEIF or AVIF picture
    just decoded whole (``decoded``, :func:`open_raster`'s), where the disk cache keeps it
    for the build's later stages and workers; nothing for another format or without the
    cache (each stage then makes it as it needs it). Raises nothing: the picture is
    decoded already, and a cache that cannot be written is skipped."""
    if is_heif_or_avif(data) and cache_dir("pictures") is not None:
        stand_in_bytes(data, lambda: _upright(decoded))
