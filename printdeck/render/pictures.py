"""Raster and photo symbols in the PDF: sized for print, JPEG kept JPEG, crops as clip paths.

Each picture is stored once, at most ``paper.max_ppi`` pixels an inch at the largest
size any card prints it (never more pixels than the source has). A photo, and a picture
from a JPEG (or HEIC, AVIF, lossy WebP) source, is stored as JPEG (DCT; a PNG icon keeps
its lossless pixels); an upright JPEG that needs no scaling passes through byte for byte.
A photo's crop is a clip path (a circle or a rounded square) over an opaque picture, so
print shops' PDF/X conversion keeps it a plain image. A picture with real transparency is
composited onto its card's flat background and clipped to its silhouette (symbols never overlap), so no soft mask
(transparency) reaches the file either: PDF/X-1a takes it, and a PDF/X conversion
keeps the page's vectors. A picture's JPEG is kept in the disk cache by drawing key and
size, so a new seed or another copy of a deck encodes nothing again; a photo's sizes are
scaled from its master (its crop square at :data:`~printdeck.artwork.picture.MASTER_PX`, made once), so a size a new
seed asks for first costs a scale and an encode, not a decode of the whole photo.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageCms
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from printdeck.artwork import MAX_IMAGE_BYTES, PHOTO_CORNER_FRACTION, Drawing, silhouette
from printdeck.cache import cache_dir, code_digest, entry_key, read_jpeg_entry, write_entry
from printdeck.model import SymbolSpec
from printdeck.units import MM_PER_UNIT

JPEG_QUALITY = 92
"""Quality of pictures stored as JPEG (4:4:4, no chroma subsampling)."""
LOSSY_FORMATS = ("JPEG", "MPO", "HEIF", "AVIF")
PX_STEPS_PER_OCTAVE = 8
"""Stored picture sizes are powers of 2 ** (1 / 8), rounded up: at most 9 % over what ``max_ppi`` asks."""
PASS_THROUGH_SLACK = 1.25
"""An upright JPEG up to this many times the pixels needed goes in untouched."""


def picture_px(art: Drawing, max_box_mm: float | None, max_ppi: int) -> int:
    """Pixels the picture's longer side is stored with: what ``max_ppi`` needs at its
    largest printed box side ``max_box_mm`` (mm), rounded up to a step of
    :data:`PX_STEPS_PER_OCTAVE` (so the picture prints with at least ``max_ppi`` pixels an
    inch, and another seed, whose largest size differs by a few per cent, often finds it
    already encoded in the cache), at most the source's own."""
    natural = max(art.size)
    if max_box_mm is None:
        return int(natural)
    needed = math.ceil(max_box_mm / MM_PER_UNIT["in"] * max_ppi)
    step = math.ceil(PX_STEPS_PER_OCTAVE * math.log2(max(needed, 16)) - 1e-9)
    return int(min(natural, math.ceil(2.0 ** (step / PX_STEPS_PER_OCTAVE) - 1e-6)))


class JpegReader(ImageReader):
    """A JPEG for the PDF, embedded as its own bytes (DCT), named by them.

    ReportLab names an image it may draw again by a digest of what ``getRGBData`` gives,
    which decodes the whole picture (``canvas.drawImage``), even when it then embeds the
    JPEG's bytes as they are: about 3.5 ms a photo in the build's one thread. This reader
    gives it the JPEG's bytes to digest instead: the same bytes, the same name; other
    bytes, another name. A JPEG ReportLab does not embed as DCT (an MPO) gives its pixels.

    Args:
        jpeg: The whole JPEG file.
    """

    def __init__(self, jpeg: bytes) -> None:
        super().__init__(io.BytesIO(jpeg))
        self._jpeg = jpeg
        self._dataA = None  # no soft mask: ``drawImage`` reads this before asking for data

    def getRGBData(self) -> bytes:
        """The JPEG's bytes where ReportLab embeds them as they are; else the pixels."""
        if self.jpeg_fh() is None:
            return bytes(super().getRGBData())
        return self._jpeg


@dataclass(frozen=True)
class StoredPicture:
    """A picture ready for the PDF: what :func:`draw_picture` embeds.

    Attributes:
        reader: The image (JPEG bytes, the file itself, or pixels).
        clip: The photo crop's shape (``circle``/``rounded``), or None.
        mask: Whether the image has an alpha channel (stored as a soft mask; only
            when no background to composite onto was given).
        subject: A removed background's outline, rings in the crop square (0..1, y
            down; even-odd), clipped to as well; None when the background stays.
        outline: A composited picture's silhouette, rings in the box (0..1, y up;
            even-odd) to clip to; None for pictures that were opaque already.
    """

    reader: ImageReader
    clip: str | None
    mask: bool
    subject: tuple[tuple[tuple[float, float], ...], ...] | None = None
    outline: tuple[tuple[tuple[float, float], ...], ...] | None = None


def store_picture(art: Drawing, max_box_mm: float | None, max_ppi: int, background: str | None = None) -> StoredPicture:
    """Decode, crop, scale and encode a raster or photo drawing for the PDF (no canvas:
    safe to run on worker threads, see :func:`store_pictures`).

    A picture with transparency is composited onto ``background`` (``#rrggbb``, the
    card's flat colour) and clipped to its silhouette's outline (``outline``), or, with
    no background, kept with its alpha as a soft mask.

    Raises:
        PrintdeckError: The file cannot be read.
    """
    # Pillow's HEIC opener is registered where a picture's drawing was made (its size read)
    from printdeck.artwork import crop_square, flattened, prepared_picture, subject_rings  # noqa: PLC0415 - pictures only

    target = picture_px(art, max_box_mm, max_ppi)
    symbol = art.symbol
    if symbol.kind == "photo":  # the opaque crop square: the clip paths crop it, no soft mask
        rings = subject_rings(symbol, art.crop) if symbol.remove_background and art.crop is not None else None
        jpeg = _kept_jpeg(art, target)
        if jpeg is not None:
            return StoredPicture(JpegReader(jpeg), symbol.photo_shape or "circle", False, rings)
        crop = art.crop
        if crop is not None:  # up to its master's side, scaled from the master
            picture = crop_square(symbol, crop, target)
        else:
            picture = prepared_picture(symbol, target).convert("RGB")
        # a photo is JPEG whatever its file (a PNG or 16-bit photo too): opaque and photographic
        return StoredPicture(_reader(picture, True, art, target), symbol.photo_shape or "circle", False, rings)
    if _passes_through(art, target) and not symbol.remove_background:
        return StoredPicture(JpegReader(Path(symbol.path or "").read_bytes()), None, False)
    jpeg = _kept_jpeg(art, target)
    if jpeg is not None:
        return StoredPicture(JpegReader(jpeg), None, False)
    picture = prepared_picture(symbol, target)
    if picture.getchannel("A").getextrema()[0] == 255:
        picture = picture.convert("RGB")
    if picture.mode == "RGBA" and background is not None:  # stored as pixels: the cache's JPEG has no background
        return StoredPicture(
            _reader(flattened(picture, background), False, art, target), None, False, outline=outline_rings(symbol)
        )
    return StoredPicture(_reader(picture, _lossy(art), art, target), None, picture.mode == "RGBA")


def outline_rings(symbol: SymbolSpec) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The symbol's silhouette outline (the shape the layout keeps apart, holding all its
    ink) as rings in its box, 0..1 each way, y up (even-odd: holes are rings too)."""
    sil = silhouette(symbol)
    rings: list[tuple[tuple[float, float], ...]] = []
    for polygon in getattr(sil.outline, "geoms", [sil.outline]):
        for ring in (polygon.exterior, *polygon.interiors):
            rings.append(tuple((x / sil.aspect + 0.5, y + 0.5) for x, y in ring.coords))
    return tuple(rings)


def store_pictures(
    jobs: Sequence[tuple[Drawing, float | None]], max_ppi: int, background: str | None = None
) -> list[StoredPicture]:
    """:func:`store_picture` of many drawings on a few threads (decoding, scaling and
    JPEG encoding release the GIL); the results do not depend on the threads."""
    if len(jobs) <= 1:
        return [store_picture(art, box, max_ppi, background) for art, box in jobs]
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        return list(pool.map(lambda job: store_picture(job[0], job[1], max_ppi, background), jobs))


def draw_picture(canvas: Canvas, art: Drawing, stored: StoredPicture) -> None:
    """Draw a stored picture into the current form, box ``(0, 0)..art.size``."""
    w, h = art.size
    if stored.clip is not None:
        _clip(canvas, w, h, stored.clip)
    if stored.subject is not None:
        if not stored.subject:  # the whole picture was background: nothing shows
            return
        outline = canvas.beginPath()
        for ring in stored.subject:
            outline.moveTo(ring[0][0] * w, (1.0 - ring[0][1]) * h)
            for x, y in ring[1:]:
                outline.lineTo(x * w, (1.0 - y) * h)
            outline.close()
        canvas.clipPath(outline, stroke=0, fill=0, fillMode=FILL_EVEN_ODD)  # clips add up: the crop and the subject
    if stored.outline is not None:
        clip_rings(canvas, stored.outline, w, h)
    canvas.drawImage(stored.reader, 0, 0, w, h, mask="auto" if stored.mask else None)


def clip_rings(canvas: Canvas, rings: Sequence[Sequence[tuple[float, float]]], w: float, h: float) -> None:
    """Clip to closed rings given in the box (0..1 each way, y up), even-odd, box ``w`` x ``h`` pt."""
    path = canvas.beginPath()
    for ring in rings:
        path.moveTo(ring[0][0] * w, ring[0][1] * h)
        for x, y in ring[1:]:
            path.lineTo(x * w, y * h)
        path.close()
    canvas.clipPath(path, stroke=0, fill=0, fillMode=FILL_EVEN_ODD)


def _clip(canvas: Canvas, w: float, h: float, shape: str) -> None:
    """Clip to the photo's shape, as :func:`printdeck.artwork.picture.photo_mask` draws it."""
    side = min(w, h)
    x0, y0 = (w - side) / 2.0, (h - side) / 2.0
    clip = canvas.beginPath()
    if shape == "rounded":
        clip.roundRect(x0, y0, side, side, PHOTO_CORNER_FRACTION * side)
    else:
        clip.circle(w / 2.0, h / 2.0, side / 2.0)
    canvas.clipPath(clip, stroke=0, fill=0)


def make_photo_master(art: Drawing) -> bool:
    """Make a photo drawing's master (:func:`printdeck.artwork.photo_master`) into the disk
    cache ahead of the render, when the PDF would take its sizes from one (a cropped photo
    from a lossy source); a master already cached is left alone. Whether it was asked for.

    Raises:
        PrintdeckError: The file cannot be read.
    """
    from printdeck.artwork import photo_master  # noqa: PLC0415 - pictures only

    if art.symbol.kind != "photo" or art.crop is None or not _lossy(art):
        return False
    photo_master(art.symbol, art.crop)
    return True


def _lossy(art: Drawing) -> bool:
    """Whether the source is a lossy (photographic) format, so JPEG storage loses nothing new."""
    from printdeck.artwork import is_lossy  # noqa: PLC0415 - pictures only

    return is_lossy(Path(art.symbol.path or ""))


def _passes_through(art: Drawing, target_px: int) -> bool:
    """An upright 8-bit JPEG in sRGB (no profile, or an sRGB one) whose pixels are not much
    more than needed (a JPEG in another space is converted to sRGB first)."""
    from printdeck.artwork import is_upright  # noqa: PLC0415 - pictures only

    with Image.open(art.symbol.path or "") as im:
        plain = im.format == "JPEG" and im.mode in ("RGB", "L") and is_upright(im) and _srgb_tagged(im)
        return plain and max(im.size) <= PASS_THROUGH_SLACK * target_px


def _srgb_tagged(im: Image.Image) -> bool:
    """Whether the picture has no ICC profile or an sRGB one (by its description)."""
    icc = im.info.get("icc_profile")
    if not icc:
        return True
    try:
        description = ImageCms.getProfileDescription(ImageCms.getOpenProfile(io.BytesIO(icc)))
    except (OSError, ImageCms.PyCMSError):
        return False
    return "srgb" in description.lower().replace(" ", "")


def _reader(picture: Image.Image, lossy: bool, art: Drawing, target_px: int) -> ImageReader:
    """An ImageReader of ``picture``: JPEG bytes for an opaque picture from a lossy
    source (ReportLab stores them as DCT; kept in the disk cache, see :func:`_kept_jpeg`),
    else the pixels (Flate, with a soft mask for alpha). Named by content, so the same
    theme in two folders gives the same PDF."""
    if lossy and picture.mode == "RGB":
        data = io.BytesIO()
        try:  # optimised Huffman tables: one pass more inside libjpeg, a smaller file
            picture.save(data, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=True)
        except OSError:
            # Pillow's optimising encoder holds the whole file in w x h bytes (libjpeg prints
            # "Suspension not allowed here" and fails past that): a noise-like picture that
            # does not fit keeps its plain encoding.
            data = io.BytesIO()
            picture.save(data, "JPEG", quality=JPEG_QUALITY, subsampling=0)
        folder = cache_dir("pictures")
        if folder is not None:
            write_entry(folder / f"{_jpeg_key(art, target_px)}.jpg", data.getvalue())
        return JpegReader(data.getvalue())
    return ImageReader(picture)


def _jpeg_key(art: Drawing, target_px: int) -> str:
    """The key of a picture's JPEG for the PDF: the drawing's key (the file, the crop and
    whatever else changes the drawing), its size in pixels and this code."""
    code = code_digest(__name__, "printdeck.artwork.picture", "printdeck.artwork.decode")
    return entry_key(art.key, target_px, JPEG_QUALITY, code)


def _kept_jpeg(art: Drawing, target_px: int) -> bytes | None:
    """The JPEG an earlier run encoded for this drawing at ``target_px`` (the disk cache,
    folder ``pictures``), or None: a picture is decoded, scaled and encoded once."""
    folder = cache_dir("pictures")
    if folder is None:
        return None
    return read_jpeg_entry(folder / f"{_jpeg_key(art, target_px)}.jpg", MAX_IMAGE_BYTES)
