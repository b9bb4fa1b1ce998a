"""A quick PNG contact sheet of laid-out cards (Pillow + resvg rasters), for a look before printing.

:func:`card_image` draws one laid-out card, :func:`contact_sheet` tiles them;
``printdeck.deck_preview.write_preview`` lays out a theme's first cards and writes the sheet.
:func:`older_preview` knows a sheet an older printdeck wrote without marking it as its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from printdeck.artwork import rasterise
from printdeck.cardshape import CardShape
from printdeck.errors import PrintdeckError
from printdeck.model import CardLayout, SymbolSpec
from printdeck.render.class_images import paste_mark

SHEET_GREY = (0xEE, 0xEE, 0xEE)
"""The sheet's colour around and between the cards (an empty slot of the last row too)."""
COLUMNS = 4
"""Cards across a sheet (fewer on a sheet of fewer cards)."""
MIN_TILE_PX = 22
"""The smallest tile: a card of 20 mm (the least a theme takes) and its 1 mm margins at 1 px/mm."""
OLDER_LOOK_MAX_PIXELS = 64_000_000
"""A PNG of more pixels is not decoded to see whether it is an older preview (it is taken as not one)."""
OLDER_CARD_SHARE = 0.8
"""The least share of its tile an older preview's card spans its longer way (a card and its
1 mm margins: 20 mm of 22 at the smallest)."""
OLDER_CENTRE_PX = 2
"""How far (pixels) an older preview's card may sit from its tile's centre (rounding)."""
OLDER_LOOK_SHARE = 0.9
"""The least share of the tiles' top and left edges in :data:`SHEET_GREY` in an older preview
(a symbol on a card with no safe margin may reach the edge at 1 px/mm; nothing else does)."""


def card_image(
    layout: CardLayout,
    symbols: Sequence[SymbolSpec],
    diameter_mm: float | CardShape,
    safe_radius_mm: float | CardShape,
    px_per_mm: float,
    background: str = "#ffffff",
    show_safe: bool = True,
) -> Image.Image:
    """Draw one laid-out card (a class set's deck mark too, as the card images show it).

    Args:
        layout: The card's placements.
        symbols: The card's symbols, in placement order.
        diameter_mm: Cut diameter, or the card's shape (the image is as wide as its
            longer side plus a 1 mm border).
        safe_radius_mm: Safe-zone radius, or its shape (drawn faintly if ``show_safe``).
        px_per_mm: Resolution.
        background: Card colour.
        show_safe: Draw the safe-zone circle.

    Returns:
        An RGBA image ``(diameter_mm + 2) * px_per_mm`` pixels square, card centred.
    """
    cut = diameter_mm if isinstance(diameter_mm, CardShape) else CardShape.circle(diameter_mm)
    safe = safe_radius_mm if isinstance(safe_radius_mm, CardShape) else CardShape.circle(2 * safe_radius_mm)
    side = math.ceil((max(cut.width_mm, cut.height_mm) + 2) * px_per_mm)
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    mid = side / 2

    def outline(shape: CardShape) -> list[tuple[float, float]]:
        pts = shape.polyline(0.5 / px_per_mm)
        return [(mid + x * px_per_mm, mid - y * px_per_mm) for x, y in pts]

    draw.polygon(outline(cut), fill=background, outline="#999999")
    if show_safe:
        draw.polygon(outline(safe), outline="#e4e4e4")
    for place, sym in zip(layout.placements, symbols):
        w = max(1, round(place.box_mm[0] * px_per_mm))
        h = max(1, round(place.box_mm[1] * px_per_mm))
        art = rasterise(sym, w, h, place.color).rotate(
            place.rotation_deg, resample=Image.Resampling.BICUBIC, expand=True
        )
        x = mid + place.center_mm[0] * px_per_mm - art.width / 2
        y = mid - place.center_mm[1] * px_per_mm - art.height / 2
        img.alpha_composite(art, (round(x), round(y)))
    if layout.mark is not None:  # a class set's deck mark, as the card images show it
        paste_mark(img, layout.mark, background, px_per_mm)
    return img


def contact_sheet(
    layouts: Sequence[CardLayout],
    cards: Sequence[Sequence[SymbolSpec]],
    diameter_mm: float | CardShape,
    safe_radius_mm: float | CardShape,
    px_per_mm: float = 3.0,
    columns: int = COLUMNS,
    background: str = "#ffffff",
) -> Image.Image:
    """Tile card images (each on the card colour ``background``, ``#rrggbb``) on a light
    grey sheet, ``columns`` across; returns an RGB image."""
    tiles = [
        card_image(lay, syms, diameter_mm, safe_radius_mm, px_per_mm, background) for lay, syms in zip(layouts, cards)
    ]
    if not tiles:
        raise PrintdeckError("preview: no cards to draw; ask for --cards 1 or more")
    cols = max(1, min(columns, len(tiles)))
    rows = math.ceil(len(tiles) / cols)
    t = tiles[0].width
    sheet = Image.new("RGB", (cols * t, rows * t), SHEET_GREY)
    for k, tile in enumerate(tiles):
        sheet.paste(tile, ((k % cols) * t, (k // cols) * t), tile)
    return sheet


def older_preview(path: Path) -> bool:
    """Whether the file ``path`` is a contact sheet an older printdeck wrote, before it
    marked its previews as its own (``printdeck.output_record.PNG_SOFTWARE``): a plain RGB
    PNG with no metadata at all, cut into square tiles (:func:`contact_sheet`: one row of
    up to :data:`COLUMNS`, or rows of :data:`COLUMNS`), each tile's top-left pixel and
    nearly all of its top and left edges sheet grey (the margin round every card), the
    first tile holding a card. A photo or a picture of one's own is none of this.
    Never raises: a file that cannot be read is not one."""
    try:
        with Image.open(path, formats=["PNG"]) as image:
            sides = _tile_sides(image.size)
            if image.mode != "RGB" or image.info or not sides or image.width * image.height > OLDER_LOOK_MAX_PIXELS:
                return False
            pixels = np.asarray(image)
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError):
        return False
    return any(_tiled_like_a_sheet(pixels, side) for side in sides)


def _tile_sides(size: tuple[int, int]) -> list[int]:
    """The sides of the square tiles a contact sheet ``size`` pixels wide and high may be
    made of: one row of 1 .. :data:`COLUMNS` tiles, or rows of :data:`COLUMNS` (a sheet of
    5 to 8 cards is also two tiles of twice the side: both are tried); none when no sheet
    is that size."""
    width, height = size
    sides = []
    if height >= MIN_TILE_PX and width % height == 0 and width // height <= COLUMNS:
        sides.append(height)
    side = width // COLUMNS
    if side >= MIN_TILE_PX and width % COLUMNS == 0 and height % side == 0 and side not in sides:
        sides.append(side)
    return sides


def _tiled_like_a_sheet(pixels: np.ndarray, side: int) -> bool:
    """Whether the RGB ``pixels`` (height x width x 3) are tiles of ``side`` pixels laid as
    :func:`contact_sheet` lays them: every tile's top-left pixel :data:`SHEET_GREY`, at least
    :data:`OLDER_LOOK_SHARE` of their top and left edges too, and the tiles holding a card
    first, each card centred in its tile and at least :data:`OLDER_CARD_SHARE` of it across
    (:func:`card_image`), the rest all grey (a plain grey picture, or a screenshot on a grey
    page, is not a sheet)."""
    grey = (pixels == SHEET_GREY).all(axis=2)
    edges = np.concatenate([grey[::side, :].ravel(), grey[:, ::side].ravel()])
    if not (grey[::side, ::side].all() and edges.mean() >= OLDER_LOOK_SHARE):
        return False
    rows, cols = grey.shape[0] // side, grey.shape[1] // side
    drawn = [
        _card_in_tile(~grey[r * side : (r + 1) * side, c * side : (c + 1) * side])
        for r in range(rows)
        for c in range(cols)
    ]
    cards = sum(1 for d in drawn if d is not None)
    return cards > 0 and all(drawn[:cards]) and not any(d is not None for d in drawn[cards:])


def _card_in_tile(ink: np.ndarray) -> bool | None:
    """Whether the non-grey pixels ``ink`` (side x side bool) of one tile are a card as
    :func:`card_image` draws it: centred within :data:`OLDER_CENTRE_PX` pixels and spanning at
    least :data:`OLDER_CARD_SHARE` of the tile one way; None for an empty (all grey) tile."""
    cols, rows = np.flatnonzero(ink.any(axis=0)), np.flatnonzero(ink.any(axis=1))
    if not len(cols):
        return None
    side = ink.shape[0]
    centred = all(abs(int(a[0]) + int(a[-1]) + 1 - side) <= 2 * OLDER_CENTRE_PX for a in (cols, rows))
    wide = max(cols[-1] - cols[0], rows[-1] - rows[0]) + 1 >= OLDER_CARD_SHARE * side
    return bool(centred and wide)
