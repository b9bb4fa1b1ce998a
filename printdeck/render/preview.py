"""A quick PNG contact sheet of laid-out cards (Pillow + resvg rasters), for a look before printing.

:func:`card_image` draws one laid-out card, :func:`contact_sheet` tiles them;
``printdeck.deck_preview.write_preview`` lays out a theme's first cards and writes the sheet.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from printdeck.artwork import rasterise
from printdeck.cardshape import CardShape
from printdeck.errors import PrintdeckError
from printdeck.model import CardLayout, SymbolSpec


def card_image(
    layout: CardLayout,
    symbols: Sequence[SymbolSpec],
    diameter_mm: float | CardShape,
    safe_radius_mm: float | CardShape,
    px_per_mm: float,
    background: str = "#ffffff",
    show_safe: bool = True,
) -> Image.Image:
    """Draw one laid-out card.

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
    return img


def contact_sheet(
    layouts: Sequence[CardLayout],
    cards: Sequence[Sequence[SymbolSpec]],
    diameter_mm: float | CardShape,
    safe_radius_mm: float | CardShape,
    px_per_mm: float = 3.0,
    columns: int = 4,
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
    sheet = Image.new("RGB", (cols * t, rows * t), "#eeeeee")
    for k, tile in enumerate(tiles):
        sheet.paste(tile, ((k % cols) * t, (k // cols) * t), tile)
    return sheet
