"""Rasterising one symbol's artwork to an RGBA image (Pillow), whatever its kind.

Used to trace silhouettes, to draw the preview contact sheet and by the tests that
stamp placed symbols independently of the engine. The image always shows the
symbol's WHOLE box (the full image, the SVG's full viewBox, the word's ink extent)
stretched to the requested pixel size, so it matches ``Placement.box_mm``.

Conventions for the kinds without a natural box:

* ``text``: the box is the word's ink extent (the pixels Pillow draws, from the
  baseline-left origin) in its font, set with plain advances (no kerning or
  ligatures, as the PDF sets it); see :func:`text_metrics`.
* ``raster`` / ``photo``: the whole (EXIF-oriented) image box, drawn by
  ``printdeck.theme.images.prepared_image``; for photos only the crop shows (a
  circle of diameter ``min(w, h)`` centred in the box, or a centred square of that
  side with rounded corners), minus a removed background if the theme asks.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import resvg_py
from defusedxml import ElementTree
from PIL import Image, ImageDraw, ImageFont, UnidentifiedImageError, features

from printdeck.errors import PrintdeckError
from printdeck.model import SymbolSpec

TEXT_REFERENCE_PX = 200  # font size (px per em) used to measure and trace words
# Words are set with the font's plain advances, as ReportLab sets them in the PDF: with
# libraqm Pillow would kern ("ke" 3 % of an em tighter) and the traced word would not
# match the printed one.
PLAIN_TEXT: dict = {"features": ["-kern", "-liga", "-clig", "-calt"]} if features.check("raqm") else {}


def default_font_path() -> Path:
    """Return the bundled font used by text symbols without a font: ReportLab's Vera.ttf."""
    import reportlab  # only for the font file's location; no drawing

    return Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"


@dataclass(frozen=True)
class TextMetrics:
    """Ink extent (the pixels drawn, not the advance) of a word relative to its baseline-left origin, in em.

    ``left``/``right`` are x offsets (right positive); ``top``/``bottom`` are y
    offsets (up positive), so the box is ``right - left`` em wide and
    ``top - bottom`` em tall. A renderer drawing the word at font size
    ``box_h / (top - bottom)`` puts the baseline origin at
    ``(box_left - left * size, box_bottom - bottom * size)``.
    """

    left: float
    top: float
    right: float
    bottom: float

    @property
    def aspect(self) -> float:
        """Width over height of the ink box."""
        return (self.right - self.left) / (self.top - self.bottom)


def _font(symbol: SymbolSpec, size_px: int) -> ImageFont.FreeTypeFont:
    path = symbol.font_path or default_font_path()
    try:
        return ImageFont.truetype(str(path), size_px)
    except OSError as exc:
        raise PrintdeckError(f"{path}: cannot load the font for text symbol {symbol.name!r}; "
                             "set text.font to a TTF/OTF file") from exc


def text_metrics(symbol: SymbolSpec) -> TextMetrics:
    """Measure a text symbol's word in its font.

    Args:
        symbol: A symbol of kind ``text``.

    Returns:
        The ink box in em units relative to the baseline-left origin.

    Raises:
        PrintdeckError: The word is empty/blank or the font cannot be loaded.
    """
    return _text_metrics_cached(symbol.text or "", str(symbol.font_path or ""), symbol.name)


@lru_cache(maxsize=1024)
def _text_metrics_cached(text: str, font_path: str, name: str) -> TextMetrics:
    spec = SymbolSpec(id=0, name=name, kind="text", source=f"text:{text}", text=text,
                      font_path=Path(font_path) if font_path else None)
    drawn = _drawn_word(_font(spec, TEXT_REFERENCE_PX), text, "black")
    if drawn is None:
        raise PrintdeckError(f"symbol {name!r}: text {text!r} draws nothing; give a visible word")
    img, (x0, y0) = drawn
    em = float(TEXT_REFERENCE_PX)
    return TextMetrics(left=x0 / em, top=-y0 / em, right=(x0 + img.width) / em, bottom=-(y0 + img.height) / em)


def _drawn_word(font: ImageFont.FreeTypeFont, text: str, fill: str) -> tuple[Image.Image, tuple[int, int]] | None:
    """The word drawn with :data:`PLAIN_TEXT` advances and cropped to its ink (the pixels
    drawn: what the layout traces and the PDF must match): ``(RGBA image, (x, y))``, where
    ``(x, y)`` is the ink's top-left corner from the baseline-left origin (pixels, y down);
    None if the word draws nothing."""
    left, top, right, bottom = font.getbbox(text, anchor="ls", **PLAIN_TEXT)  # horizontally the advance
    if not text.strip() or right <= left or bottom <= top:
        return None
    pad = 4
    img = Image.new("RGBA", (right - left + 2 * pad, bottom - top + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((pad - left, pad - top), text, font=font, fill=fill, anchor="ls", **PLAIN_TEXT)
    ink = img.getbbox()
    if ink is None:
        return None
    return img.crop(ink), (ink[0] - pad + left, ink[1] - pad + top)


def natural_aspect(symbol: SymbolSpec) -> float:
    """Return width over height of the symbol's whole box (see the module conventions).

    Raises:
        PrintdeckError: The artwork file is missing or unreadable.
    """
    if symbol.kind == "text":
        return text_metrics(symbol).aspect
    if symbol.kind == "svg":
        return svg_aspect(_existing(symbol))
    path = _existing(symbol)
    w, h = _oriented_size(path, path.stat().st_mtime)
    return w / h


_NUMBER = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(px|pt|mm|cm|in)?\s*$")


@lru_cache(maxsize=4096)
def svg_aspect(path: Path) -> float:
    """Width over height of an SVG's whole box: its ``viewBox``, else ``width``/``height``,
    else the size resvg draws it at.

    Raises:
        PrintdeckError: The file is not readable SVG.
    """
    try:
        root = ElementTree.parse(str(path)).getroot()
    except (ElementTree.ParseError, OSError, ValueError) as exc:
        raise PrintdeckError(f"{path}: not a readable SVG file ({exc}); check the file") from exc
    box = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        if len(box) == 4 and float(box[2]) > 0 and float(box[3]) > 0:
            return float(box[2]) / float(box[3])
    except ValueError:
        pass
    w, h = _NUMBER.match(root.get("width") or ""), _NUMBER.match(root.get("height") or "")
    if w and h and float(w.group(1)) > 0 and float(h.group(1)) > 0:
        return float(w.group(1)) / float(h.group(1))
    img = Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_path=str(path)))))
    return img.width / img.height


def rasterise(symbol: SymbolSpec, width_px: int, height_px: int) -> Image.Image:
    """Draw the symbol's whole box stretched to ``width_px`` x ``height_px`` pixels.

    Args:
        symbol: Any symbol.
        width_px: Output width in pixels (>= 1).
        height_px: Output height in pixels (>= 1).

    Returns:
        An RGBA Pillow image; alpha is the ink (0 = transparent).

    Raises:
        PrintdeckError: The artwork file is missing, unreadable or draws nothing.
    """
    width_px, height_px = max(1, int(width_px)), max(1, int(height_px))
    if symbol.kind == "svg":
        img = _svg_image(symbol, width_px, height_px)
    elif symbol.kind == "text":
        img = _text_image(symbol, width_px, height_px)
    else:  # raster / photo: the theme's prepared picture (EXIF-oriented, photo crop, background)
        from printdeck.theme.images import prepared_image

        _existing(symbol)
        img = prepared_image(symbol, max_px=max(width_px, height_px))
        img = img.convert("RGBA").resize((width_px, height_px), Image.Resampling.LANCZOS)
    return img


def _svg_image(symbol: SymbolSpec, width_px: int, height_px: int | None) -> Image.Image:
    path = _existing(symbol)
    try:
        png = resvg_py.svg_to_bytes(svg_path=str(path), width=width_px, height=height_px)
        img = Image.open(io.BytesIO(bytes(png)))
        img.load()
    except Exception as exc:  # resvg raises plain exceptions on bad SVG
        raise PrintdeckError(f"{path}: cannot draw this SVG ({exc}); check the file") from exc
    img = img.convert("RGBA")
    if height_px is not None and img.size != (width_px, height_px):
        img = img.resize((width_px, height_px), Image.Resampling.LANCZOS)
    return img


def _text_image(symbol: SymbolSpec, width_px: int, height_px: int) -> Image.Image:
    m = text_metrics(symbol)
    size = max(TEXT_REFERENCE_PX, round(height_px / (m.top - m.bottom)))  # small sizes: drawn big, then scaled
    drawn = _drawn_word(_font(symbol, size), symbol.text or "", symbol.color)
    if drawn is None:
        raise PrintdeckError(f"symbol {symbol.name!r}: text {symbol.text!r} draws nothing; give a visible word")
    return drawn[0].resize((width_px, height_px), Image.Resampling.LANCZOS)


def _existing(symbol: SymbolSpec) -> Path:
    if symbol.path is None or not Path(symbol.path).is_file():
        raise PrintdeckError(f"symbol {symbol.name!r}: artwork file {symbol.path} not found; "
                             "fix the path in the theme's symbols list")
    return Path(symbol.path)


@lru_cache(maxsize=4096)
def _oriented_size(path: Path, mtime: float) -> tuple[int, int]:
    """(width, height) of an image file as displayed (EXIF orientation 5-8 swaps them)."""
    try:
        with Image.open(path) as im:
            w, h = im.size
            turned = im.getexif().get(0x0112, 1) in (5, 6, 7, 8)
    except (OSError, UnidentifiedImageError, Image.DecompressionBombError) as exc:
        raise PrintdeckError(f"{path}: cannot read this image ({exc}); give a PNG, JPEG or WebP file") from exc
    return (h, w) if turned else (w, h)


def alpha_array(img: Image.Image) -> np.ndarray:
    """Return the alpha channel of an RGBA image as ``(H, W) uint8``."""
    return np.asarray(img.getchannel("A"), dtype=np.uint8)
