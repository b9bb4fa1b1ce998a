"""A quick PNG contact sheet of laid-out cards (Pillow + resvg rasters), for a look before printing."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from printdeck.artwork import rasterise
from printdeck.errors import PrintdeckError
from printdeck.fileio import atomic_output
from printdeck.layout.colours import colour_words
from printdeck.layout.deck import layout_deck
from printdeck.layout.settings import LayoutSettings
from printdeck.model import CardLayout, SymbolSpec
from printdeck.theme import Theme, load_theme


def card_image(layout: CardLayout, symbols: Sequence[SymbolSpec], diameter_mm: float, safe_radius_mm: float,
               px_per_mm: float, background: str = "#ffffff", show_safe: bool = True) -> Image.Image:
    """Draw one laid-out card.

    Args:
        layout: The card's placements.
        symbols: The card's symbols, in placement order.
        diameter_mm: Cut diameter (the image is this wide plus a 1 mm border).
        safe_radius_mm: Safe-zone radius (drawn as a faint dotted circle if ``show_safe``).
        px_per_mm: Resolution.
        background: Card colour.
        show_safe: Draw the safe-zone circle.

    Returns:
        An RGBA image ``(diameter_mm + 2) * px_per_mm`` pixels square, card centred.
    """
    side = math.ceil((diameter_mm + 2) * px_per_mm)
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    mid = side / 2
    r = diameter_mm / 2 * px_per_mm
    draw.ellipse((mid - r, mid - r, mid + r, mid + r), fill=background, outline="#999999")
    if show_safe:
        rs = safe_radius_mm * px_per_mm
        draw.ellipse((mid - rs, mid - rs, mid + rs, mid + rs), outline="#e4e4e4")
    for place, sym in zip(layout.placements, symbols):
        w = max(1, round(place.box_mm[0] * px_per_mm))
        h = max(1, round(place.box_mm[1] * px_per_mm))
        art = rasterise(sym, w, h, place.color).rotate(place.rotation_deg, resample=Image.Resampling.BICUBIC, expand=True)
        x = mid + place.center_mm[0] * px_per_mm - art.width / 2
        y = mid - place.center_mm[1] * px_per_mm - art.height / 2
        img.alpha_composite(art, (round(x), round(y)))
    return img


def contact_sheet(layouts: Sequence[CardLayout], cards: Sequence[Sequence[SymbolSpec]], diameter_mm: float,
                  safe_radius_mm: float, px_per_mm: float = 3.0, columns: int = 4) -> Image.Image:
    """Tile card images on a light grey sheet, ``columns`` across; returns an RGB image."""
    tiles = [card_image(lay, syms, diameter_mm, safe_radius_mm, px_per_mm) for lay, syms in zip(layouts, cards)]
    if not tiles:
        raise PrintdeckError("preview: no cards to draw; ask for --cards 1 or more")
    cols = max(1, min(columns, len(tiles)))
    rows = math.ceil(len(tiles) / cols)
    t = tiles[0].width
    sheet = Image.new("RGB", (cols * t, rows * t), "#eeeeee")
    for k, tile in enumerate(tiles):
        sheet.paste(tile, ((k % cols) * t, (k // cols) * t), tile)
    return sheet


def preview_cards(theme: Theme, count: int, seed: int) -> list[list[SymbolSpec]]:
    """The first ``count`` cards of the theme's deck, with symbols as the build assigns them.

    Raises:
        PrintdeckError: The theme's deck cannot be made.
    """
    from printdeck.pipeline import (  # the build's own choice of cards
        deck_design,
        deck_symbols,
    )

    design = deck_design(theme)
    symbols = deck_symbols(theme, design, seed)
    return [[symbols[p] for p in block] for block in list(design.blocks)[:count]]


def unused_in_deck(theme: Theme, seed: int) -> list[str]:
    """Names of the theme's symbols no card of its deck shows (as ``build`` reports them)."""
    from printdeck.pipeline import deck_design, deck_symbols, unused_symbols

    design = deck_design(theme)
    return [s.name for s in unused_symbols(theme, deck_symbols(theme, design, seed), design.blocks)]


def write_preview(theme_ref: str | Path | Theme | None, out_path: Path, count: int = 12, seed: int | None = None,
                  px_per_mm: float = 3.0) -> tuple[Path, int]:
    """Lay out the first ``count`` cards of a theme and write them as a PNG contact sheet.

    Args:
        theme_ref: Theme name, file or folder (``None`` = default theme), or a loaded theme.
        out_path: The ``.png`` to write (atomically).
        count: Cards to draw (>= 1).
        seed: Overrides the theme's seed.
        px_per_mm: Resolution of the sheet.

    Returns:
        (``out_path``, cards drawn: ``count`` or the whole deck if it is smaller).

    Raises:
        PrintdeckError: Bad theme, impossible deck or layout, unwritable output.
    """
    if count < 1:
        raise PrintdeckError(f"--cards: expected 1 or more, got {count}")
    if Path(out_path).suffix.lower() != ".png":
        raise PrintdeckError(f"{out_path}: the preview must be a .png file name")
    theme = load_theme(theme_ref)
    seed = theme.spec.seed if seed is None else seed
    cards = preview_cards(theme, count, seed)
    settings = LayoutSettings.from_theme(theme)
    layouts = layout_deck(cards, settings, seed)
    layouts = colour_words(layouts, [s for card in cards for s in card], theme.spec.text.colors)
    sheet = contact_sheet(layouts, cards, theme.spec.card.diameter_mm, settings.safe_radius_mm, px_per_mm)
    with atomic_output(Path(out_path)) as tmp:
        sheet.save(tmp, format="PNG", optimize=False)
    return Path(out_path), len(layouts)
