"""Drawing a symbol to pixels: the one raster routine of the silhouette, PNGs and preview."""

from __future__ import annotations

import numpy as np
from PIL import Image

from printdeck.artwork.drawing import Drawing, about, drawing, existing_file
from printdeck.artwork.svg import svg_pixels, svg_text_pixels
from printdeck.model import SymbolSpec


def rasterise(symbol: SymbolSpec | Drawing, width_px: int, height_px: int, color: str | None = None) -> Image.Image:
    """Draw the symbol's whole box stretched to ``width_px`` x ``height_px`` pixels.

    Args:
        symbol: A symbol, or its :class:`Drawing`.
        width_px: Output width in pixels (>= 1).
        height_px: Output height in pixels (>= 1).
        color: The fill of a word (``#rrggbb``); None: the symbol's home colour.
            Ignored for pictures and SVGs.

    Returns:
        An RGBA Pillow image; alpha is the ink (0 = transparent).

    Raises:
        PrintdeckError: The artwork file is missing, unreadable or cannot be drawn.
    """
    art = symbol if isinstance(symbol, Drawing) else drawing(symbol)
    width_px, height_px = max(1, int(width_px)), max(1, int(height_px))
    with about(art.symbol):
        if art.kind == "svg":
            return svg_pixels(existing_file(art.symbol), width_px, height_px)
        if art.kind == "text":
            return svg_text_pixels(word_svg(art, color or art.symbol.color, (width_px, height_px)), width_px, height_px)
        from printdeck.artwork.picture import prepared_picture  # noqa: PLC0415 - pillow-heif only for pictures

        picture = prepared_picture(art.symbol, max_px=max(width_px, height_px), crop=art.crop)
    return picture.resize((width_px, height_px), Image.Resampling.LANCZOS)


def rasterise_longest(symbol: SymbolSpec | Drawing, longest_px: int, least_px: int = 1) -> Image.Image:
    """:func:`rasterise` with the symbol's box kept in proportion, its longer side
    ``longest_px`` pixels (its shorter at least ``least_px``): a symbol drawn alone (the
    proofs, ``init``'s check of a picture, the studio's view of a photo as it prints).

    Raises:
        PrintdeckError: The artwork file is missing, unreadable or cannot be drawn.
    """
    art = symbol if isinstance(symbol, Drawing) else drawing(symbol)
    scale = longest_px / max(art.size)
    return rasterise(art, max(least_px, round(art.size[0] * scale)), max(least_px, round(art.size[1] * scale)))


def word_svg(art: Drawing, color: str, size_px: tuple[int, int] | None = None) -> str:
    """A word's outlines as an SVG document whose viewBox is the word's ink box (em units),
    filled ``color`` with the non-zero rule, ``size_px`` (width, height) pixels (the box
    stretched to it) or, if None, one pixel an em."""
    from fontTools.pens.svgPathPen import SVGPathPen  # noqa: PLC0415 - fontTools only for words

    pen = SVGPathPen(None, ntos=lambda v: f"{v:.5f}".rstrip("0").rstrip("."))
    for op, pts in art.word_ops():
        getattr(pen, op)(*pts)
    w, h = art.size
    px_w, px_h = size_px or (w, h)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{px_w}" height="{px_h}" viewBox="0 0 {w!r} {h!r}" '
        'preserveAspectRatio="none">'
        f'<path transform="matrix(1 0 0 -1 0 {h!r})" fill="{color}" fill-rule="nonzero" d="{pen.getCommands()}"/>'
        "</svg>"
    )


def alpha_array(img: Image.Image) -> np.ndarray:
    """The alpha channel of an RGBA image as ``(H, W) uint8``."""
    return np.asarray(img.getchannel("A"), dtype=np.uint8)
