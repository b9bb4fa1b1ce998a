"""Raster and photo symbols: crops, masters and removed backgrounds.

:func:`prepared_picture` gives the one RGBA picture of a raster or photo symbol that
the silhouette is traced from and that the PNGs and the preview show; the PDF prints
the same pixels (with the crop as a clip path where the picture is untouched). Files are
decoded by :mod:`printdeck.artwork.decode`.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from printdeck.artwork.decode import open_raster, oriented_size, upright_decoded, upright_file
from printdeck.artwork.faces import opencv
from printdeck.cache import cache_dir, code_digest, entry_key, file_digest, read_jpeg_entry, write_entry
from printdeck.choices import MAX_IMAGE_BYTES, PHOTO_CORNER_FRACTION
from printdeck.errors import PrintdeckError
from printdeck.model import SymbolSpec, drawn_only

BACKGROUND_TOLERANCE = 40
"""Largest per-channel difference from the corner colour still counted as background."""
FACE_PROBE_PX = 512
"""Longer side, pixels, of the copy of a photo searched for faces and its subject."""
BACKGROUND_PX = 512
"""Side, pixels, of the crop square (a photo's) or longer side (a raster image's) a removed
background is found on."""
MIN_RING_PX2 = 12.0
"""Outline rings of a removed background smaller than this (pixels² at :data:`BACKGROUND_PX`) are dropped."""
MASTER_PX = 1024
"""Side, pixels, of a photo's master (:func:`photo_master`): its crop square, made once from
the photo and kept in the disk cache, from which every drawing of it up to this side is
scaled (the crop search's copy aside): the silhouette, proof, look and the PDF's sizes."""
MASTER_QUALITY = 97
"""JPEG quality of a photo's master."""
LOSSY_FORMATS = ("JPEG", "MPO", "HEIF", "AVIF")
"""Pillow formats that store pictures lossily (WebP: when not lossless)."""


@dataclass(frozen=True)
class Crop:
    """A photo's crop square, in upright source pixels (x right, y down).

    Attributes:
        left: x of the square's left side.
        top: y of its top side.
        side: its side.
    """

    left: float
    top: float
    side: float


@lru_cache(maxsize=16)
def photo_mask(shape: str | None, width_px: int, height_px: int) -> np.ndarray:
    """The crop mask of a photo box, ``(height_px, width_px) uint8`` (255 = shown), read-only.

    A circle of diameter min(w, h), or a square of side min(w, h) with corners
    rounded by :data:`PHOTO_CORNER_FRACTION` of the side, centred in the box; drawn
    4x over-sampled, then reduced (anti-aliased edge). Made once a process for each
    shape and size (every photo of a deck is masked at the same few sizes; a 1024-pixel
    mask takes about 10 ms), so the array is shared: copy it to change it.
    """
    scale = 4
    w, h = width_px * scale, height_px * scale
    side = min(w, h)
    x0, y0 = (w - side) / 2, (h - side) / 2
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    box = (x0, y0, x0 + side - 1, y0 + side - 1)
    if shape == "rounded":
        draw.rounded_rectangle(box, radius=PHOTO_CORNER_FRACTION * side, fill=255)
    else:
        draw.ellipse(box, fill=255)
    reduced = np.array(mask.resize((width_px, height_px), Image.Resampling.LANCZOS))
    reduced.setflags(write=False)
    return reduced


def background_alpha(rgb: Image.Image, tolerance: int) -> np.ndarray:
    """Alpha ``(H, W) uint8``: 0 where a plain background connected to a corner shows.

    The flood fill (OpenCV's ``floodFill`` from the four corners, within ``tolerance`` of
    each corner's colour on every channel) runs on a 128-pixel copy (:func:`_reached`);
    at full size, every run of pixels close to a corner colour (4-connected) that it
    reaches is cleared, so edges stay sharp and a narrow notch of the background (between
    an ear and a head) goes with the rest. Loose specks are then cleared
    (:func:`_without_specks`) and the rim that blends subject and background is dropped
    (:func:`_without_rim`).
    """
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    pixels = np.asarray(rgb.convert("RGB"), dtype=np.int16)
    corners = np.array([pixels[0, 0], pixels[0, -1], pixels[-1, 0], pixels[-1, -1]])
    close = np.zeros(pixels.shape[:2], dtype=bool)
    for colour in corners:
        close |= np.abs(pixels - colour).max(axis=2) <= tolerance
    count, runs = cv2.connectedComponents(close.astype(np.uint8), connectivity=4)
    reached_runs = np.zeros(count, dtype=bool)
    reached_runs[runs[_reached(rgb, tolerance) & close]] = True
    reached_runs[0] = False  # label 0: the pixels not close to any corner colour
    return _without_rim(_without_specks(np.where(reached_runs[runs], 0, 255).astype(np.uint8)))


def _reached(rgb: Image.Image, tolerance: int) -> np.ndarray:
    """``(H, W) bool`` at ``rgb``'s size: where OpenCV's ``floodFill`` from the four corners
    (within ``tolerance`` of each corner's colour on every channel) surely reached on a
    128-pixel copy: scaled up block by block, then less a band as wide as one block, so a
    fill that stopped at a thin outline never seeds the subject inside it."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    small = rgb.copy()
    small.thumbnail((128, 128))
    pixels_small = np.array(small.convert("RGB"), dtype=np.uint8)  # writable, as OpenCV wants
    h, w = pixels_small.shape[:2]
    flooded = np.zeros((h + 2, w + 2), dtype=np.uint8)  # OpenCV's mask has a one-pixel border
    flags = 4 | cv2.FLOODFILL_FIXED_RANGE | cv2.FLOODFILL_MASK_ONLY | (255 << 8)
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        if not flooded[y + 1, x + 1]:
            cv2.floodFill(pixels_small, flooded, (x, y), 0, (tolerance,) * 3, (tolerance,) * 3, flags)
    reached = np.asarray(Image.fromarray(flooded[1:-1, 1:-1]).resize(rgb.size, Image.Resampling.NEAREST))
    block = math.ceil(max(rgb.size) / max(w, h))  # full-size pixels a small one stands for
    square = np.ones((2 * block + 1,) * 2, dtype=np.uint8)
    return cv2.erode((reached > 0).astype(np.uint8), square, borderType=cv2.BORDER_REPLICATE).astype(bool)


SPECK_SHARE = 0.0015
"""A part of a photo left by background removal smaller than this share of the picture's
area, and clear of its edges, is a speck of the background (a sticker on the wall, a leaf),
not the subject: cleared. A ball held apart, a wand, a second person are larger; a hand
reaching in from the crop's edge touches it."""


def _without_specks(alpha: np.ndarray) -> np.ndarray:
    """``alpha`` ``(H, W) uint8`` with each kept part (8-connected) that is under
    :data:`SPECK_SHARE` of the picture's area and touches no edge cleared to 0: loose bits
    of the background would print as marks beside the subject, and the layout would keep
    room round them."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    _, labels, stats, _ = cv2.connectedComponentsWithStats((alpha > 0).astype(np.uint8), connectivity=8)
    h, w = alpha.shape
    left, top = stats[1:, cv2.CC_STAT_LEFT], stats[1:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[1:, cv2.CC_STAT_WIDTH], top + stats[1:, cv2.CC_STAT_HEIGHT]
    at_edge = (left == 0) | (top == 0) | (right == w) | (bottom == h)
    small = stats[1:, cv2.CC_STAT_AREA] < SPECK_SHARE * h * w
    specks = np.flatnonzero(small & ~at_edge) + 1
    if specks.size == 0:
        return alpha
    cleared = alpha.copy()
    cleared[np.isin(labels, specks)] = 0
    return cleared


RIM_SHARE = 1 / 256
"""Width, as a share of the picture's longer side, of the rim a removed background leaves
cleared round what is kept: there the photo's pixels blend the subject with the background
(a white cat's fur with the blue wall), which printed as a tinted outline at full opacity
and hid a white cut-out's faint edge on a white card (2 pixels at :data:`BACKGROUND_PX`)."""


def _without_rim(alpha: np.ndarray) -> np.ndarray:
    """``alpha`` ``(H, W) uint8`` with its kept part eroded by :data:`RIM_SHARE` of its longer
    side (at least one pixel; a disc), so none of the pixels beside the removed background,
    which mix its colour into the subject's, is kept. The picture's own edges erode nothing:
    a hand reaching in from the crop's edge keeps its reach."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    radius = max(1, round(RIM_SHARE * max(alpha.shape)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    eroded: np.ndarray = cv2.erode(alpha, disc, borderType=cv2.BORDER_REPLICATE)
    return eroded


def upright(symbol: SymbolSpec, max_px: int) -> Image.Image:
    """The symbol's raster, EXIF-oriented, RGBA, scaled so its longer side is ``max_px``.

    Raises:
        PrintdeckError: The file is missing, unreadable or not an image.
    """
    if symbol.path is None:
        raise symbol.error("no artwork file", "fix the theme's symbols list")
    return upright_file(Path(symbol.path), max_px, f"symbol {symbol.name!r}")


def prepared_picture(symbol: SymbolSpec, max_px: int = 512, crop: Crop | None = None) -> Image.Image:
    """The picture of a raster or photo symbol as RGBA, its longer side ``max_px`` pixels.

    - ``raster``: the whole image (EXIF orientation applied), alpha kept; with
      ``remove_background``, also 0 where a plain background touching its corners shows
      (:func:`cut_out`).
    - ``photo``: the ``crop`` square (default: centred, side min(w, h)) of the
      EXIF-upright photo, transparency flattened on white; alpha = the shape mask
      (:func:`photo_mask`) and, with ``remove_background``, 0 where a plain background
      touching the square's corners shows (:func:`background_alpha`).

    Only as many pixels are decoded as ``max_px`` needs (JPEG ``draft``).

    Raises:
        PrintdeckError: The file cannot be read or decoded, or the symbol is not a picture.
    """
    if symbol.kind not in ("raster", "photo"):
        raise symbol.error(f"a {symbol.kind} symbol has no picture")
    if symbol.kind == "raster":
        picture = upright(symbol, max_px)
        return cut_out(symbol, picture) if symbol.remove_background else picture
    w, h = oriented_size(Path(symbol.path or ""))
    crop = crop or Crop((w - min(w, h)) / 2.0, (h - min(w, h)) / 2.0, float(min(w, h)))
    flat = crop_square(symbol, crop, max_px)
    alpha = photo_mask(symbol.photo_shape, flat.width, flat.height)
    if symbol.remove_background:
        alpha = np.minimum(alpha, rings_mask(subject_rings(symbol, crop), flat.width))
    out = flat.convert("RGBA")
    out.putalpha(Image.fromarray(alpha))
    return out


def flattened(picture: Image.Image, colour: str = "#ffffff") -> Image.Image:
    """An RGBA ``picture`` composited onto the flat ``colour`` (``#rrggbb``): RGB."""
    flat = Image.new("RGB", picture.size, colour)
    flat.paste(picture, mask=picture.getchannel("A"))
    return flat


def cut_out(symbol: SymbolSpec, picture: Image.Image) -> Image.Image:
    """``picture`` (RGBA, the raster ``symbol``'s at any size) with its plain background made
    transparent: its alpha is also 0 where the background is (:func:`cut_out_mask`, found once
    at :data:`BACKGROUND_PX` and scaled to the picture, so every size of it, the silhouette's,
    the tile's and the PDF's, leaves out the same background)."""
    mask = Image.fromarray(cut_out_mask(symbol)).resize(picture.size, Image.Resampling.BILINEAR)
    out = picture.copy()
    out.putalpha(Image.fromarray(np.minimum(np.asarray(picture.getchannel("A")), np.asarray(mask))))
    return out


def cut_out_mask(symbol: SymbolSpec) -> np.ndarray:
    """Alpha ``(h, w) uint8`` of a raster symbol's plain background left out, its longer side
    :data:`BACKGROUND_PX` (:func:`background_alpha`; transparent parts count as white). Found
    once a drawing."""
    return _cut_out_mask(drawn_only(symbol))


@lru_cache(maxsize=256)
def _cut_out_mask(symbol: SymbolSpec) -> np.ndarray:
    mask = background_alpha(flattened(upright(symbol, BACKGROUND_PX)), BACKGROUND_TOLERANCE)
    mask.setflags(write=False)  # shared by every caller
    return mask


def crop_square(symbol: SymbolSpec, crop: Crop, side_px: int) -> Image.Image:
    """The photo's crop square, ``side_px`` pixels a side, transparency flattened on white (RGB).

    A photo in a lossy format (JPEG, HEIC, AVIF, lossy WebP) is drawn at up to its
    master's side (:func:`photo_master`) from its master, so its crop search, proof,
    silhouette, look and print share one decode of the photo; larger sizes and lossless
    sources are decoded with only the pixels they need and scaled once.
    """
    if symbol.path is None:
        raise PrintdeckError(f"symbol {symbol.name!r}: no artwork file")
    if side_px <= master_side(crop) and is_lossy(Path(symbol.path)):
        return _from_master(symbol, crop, side_px)
    return _source_square(symbol, crop, side_px, 2)


def _from_master(symbol: SymbolSpec, crop: Crop, side_px: int) -> Image.Image:
    """The crop square at ``side_px`` (at most the master's side) scaled from the master.
    At half the master's side or less, the master's JPEG is decoded at 1/2, 1/4 or 1/8
    scale (libjpeg's scaled inverse DCT through Pillow's ``draft``: the smallest that keeps
    at least ``side_px`` pixels) before the Lanczos scaling: a quarter of the pixels or
    fewer decoded and scaled, about half the time of a new size a new seed asks for
    (bench/RESULTS.md), within a level or so of scaling the whole master."""
    if 2 * side_px > master_side(crop):  # no scaled decode keeps side_px pixels: the decoded master
        master = photo_master(symbol, crop)
        return master.copy() if master.width == side_px else master.resize((side_px, side_px), Image.Resampling.LANCZOS)
    drawn = drawn_only(symbol)
    return _decoded_master(drawn, _master_jpeg(drawn, crop), side_px).resize(
        (side_px, side_px), Image.Resampling.LANCZOS
    )


def _source_square(symbol: SymbolSpec, crop: Crop, side_px: int, oversample: int) -> Image.Image:
    """The crop square cut from the photo file, decoded with ``oversample`` times the
    pixels it needs where the source has them (JPEG ``draft``) and scaled once."""
    path = Path(symbol.path or "")
    w, h = oriented_size(path)
    need = min(max(w, h), math.ceil(side_px * max(w, h) / crop.side))
    full = upright_decoded(path, math.ceil(need * oversample / 2), f"symbol {symbol.name!r}")
    sx, sy = full.width / w, full.height / h
    box = (
        crop.left * sx,
        crop.top * sy,
        min(full.width, (crop.left + crop.side) * sx),
        min(full.height, (crop.top + crop.side) * sy),
    )
    square = full.resize((side_px, side_px), Image.Resampling.LANCZOS, box=box, reducing_gap=3.0)
    if square.mode in ("RGB", "L"):
        return square.convert("RGB")
    return flattened(square.convert("RGBA"))


def is_lossy(path: Path) -> bool:
    """Whether the picture file is in a lossy (photographic) format (:data:`LOSSY_FORMATS`,
    or lossy WebP), so a JPEG of it loses nothing new."""
    with Image.open(path) as im:
        return im.format in LOSSY_FORMATS or (im.format == "WEBP" and not im.info.get("lossless"))


def master_side(crop: Crop) -> int:
    """Side, pixels, of a photo's master: :data:`MASTER_PX`, or the crop's own side when smaller."""
    return int(min(MASTER_PX, crop.side))


def photo_master(symbol: SymbolSpec, crop: Crop) -> Image.Image:
    """A photo's master: its crop square at :func:`master_side` pixels, made once from the
    photo, encoded as JPEG (quality :data:`MASTER_QUALITY`) and kept in the disk cache
    (folder ``pictures``), RGB. Always decoded from those bytes, so a build with the cache
    and one without draw the same pixels. The photo is decoded with at least the master's
    pixels (a 12-megapixel JPEG cropped whole: at half size, the decode its crop search
    uses). Callers do not change the image they get.

    Raises:
        PrintdeckError: The file cannot be read.
    """
    return _master(drawn_only(symbol), crop)


def forget_masters() -> None:
    """Forget the masters decoded and read in this process (as a new process would; the
    disk cache keeps them)."""
    _master.cache_clear()
    _master_jpeg.cache_clear()


@lru_cache(maxsize=8)
def _master(symbol: SymbolSpec, crop: Crop) -> Image.Image:
    return _decoded_master(symbol, _master_jpeg(symbol, crop))


def _decoded_master(symbol: SymbolSpec, jpeg: bytes, draft_px: int | None = None) -> Image.Image:
    """A master's JPEG decoded (:func:`~.decode.open_raster`), reduced to at least
    ``draft_px`` pixels a side where given; RGB."""
    return open_raster(jpeg, Path(symbol.path or ""), f"symbol {symbol.name!r}", draft_px).convert("RGB")


@lru_cache(maxsize=8)
def _master_jpeg(symbol: SymbolSpec, crop: Crop) -> bytes:
    """The master's JPEG bytes (see :func:`photo_master`), from the disk cache or made."""
    folder = cache_dir("pictures")
    side = master_side(crop)  # what makes the master: the file's bytes, the crop, the side and this code
    digest = file_digest(Path(symbol.path or ""))
    key = entry_key(digest, "master", crop, side, MASTER_QUALITY, code_digest(__name__, "printdeck.artwork.decode"))
    data = read_jpeg_entry(folder / f"{key}.jpg", MAX_IMAGE_BYTES) if folder is not None else None
    if data is None:
        out = io.BytesIO()
        _source_square(symbol, crop, side, 1).save(out, "JPEG", quality=MASTER_QUALITY, subsampling=0)
        data = out.getvalue()
        if folder is not None:
            write_entry(folder / f"{key}.jpg", data)
    return data


def subject_rings(symbol: SymbolSpec, crop: Crop) -> tuple[tuple[tuple[float, float], ...], ...]:
    """What a photo keeps once its plain background is removed, as closed rings in the crop
    square (0..1, x right, y down), filled by the even-odd rule.

    Found once, at :data:`BACKGROUND_PX` pixels (:func:`background_alpha`), traced with
    OpenCV's contours: the PNGs, the preview and the silhouette draw these rings
    (:func:`rings_mask`) and the PDF clips to them, so all agree and the PDF keeps a
    plain JPEG (no soft mask).
    """
    return _subject_rings(drawn_only(symbol), crop)


@lru_cache(maxsize=256)
def _subject_rings(symbol: SymbolSpec, crop: Crop) -> tuple[tuple[tuple[float, float], ...], ...]:
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    flat = crop_square(symbol, crop, BACKGROUND_PX)
    subject = (background_alpha(flat, BACKGROUND_TOLERANCE) > 127).astype(np.uint8)
    kernel = np.ones((3, 3), np.uint8)  # specks of noise are not the subject, nor pinholes in it
    keep = cv2.morphologyEx(cv2.morphologyEx(subject, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, kernel)
    contours, _ = cv2.findContours(keep, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    rings = []
    for contour in contours:
        if abs(cv2.contourArea(contour)) < MIN_RING_PX2:
            continue
        points = cv2.approxPolyDP(contour, 0.7, True)[:, 0, :].astype(float)
        if len(points) >= 3:
            rings.append(tuple((float(x + 0.5) / BACKGROUND_PX, float(y + 0.5) / BACKGROUND_PX) for x, y in points))
    return tuple(rings)


PIECE_SHARE = 0.00005
"""Smallest part, as a share of the crop square's area, that :func:`subject_pieces` counts
(13 pixels at :data:`BACKGROUND_PX`): a crumb of the outline's antialiasing is not a piece."""


def subject_pieces(symbol: SymbolSpec, crop: Crop) -> int:
    """How many separate parts (8-connected, each at least :data:`PIECE_SHARE` of the square)
    a photo with ``remove_background`` prints: its rings (:func:`subject_rings`) inside its
    shape (:func:`photo_mask`), at :data:`BACKGROUND_PX` pixels. A subject against a plain
    wall is one part, or a few (a ball held apart, two people); what a busy background
    leaves is dozens."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    side = BACKGROUND_PX
    kept = (rings_mask(subject_rings(symbol, crop), side) > 127) & (photo_mask(symbol.photo_shape, side, side) > 127)
    _, _, stats, _ = cv2.connectedComponentsWithStats(kept.astype(np.uint8), connectivity=8)
    return int((stats[1:, cv2.CC_STAT_AREA] >= PIECE_SHARE * side * side).sum())


def rings_mask(rings: tuple[tuple[tuple[float, float], ...], ...], side_px: int) -> np.ndarray:
    """``(side_px, side_px) uint8``: closed rings (0..1 square, y down) filled by the even-odd
    rule, drawn 4x over-sampled then reduced (anti-aliased edges)."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    big = side_px * 4
    inside = np.zeros((big, big), dtype=np.uint8)
    polygons = [np.round(np.array(ring) * big * 16).astype(np.int32) for ring in rings]  # 4 fractional bits
    if polygons:
        cv2.fillPoly(inside, polygons, 255, lineType=cv2.LINE_8, shift=4)  # several contours: even-odd
    mask = Image.fromarray(inside)
    return np.asarray(mask.resize((side_px, side_px), Image.Resampling.BOX))
