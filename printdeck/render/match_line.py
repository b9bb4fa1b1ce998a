"""A match named on one line in the slides: its face, then its name, set to fit.

The answer slide's corner tiles (``reveal: corner``) show the match this way, and the
answer key's names are fitted as the tiles' are (:func:`fitted_name`). Geometry in mm from
the slide's bottom-left corner.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.model import SymbolSpec
from printdeck.render.forms import ArtLibrary
from printdeck.render.page_faces import draw_fitted_symbol
from printdeck.render.pdf_fonts import SANS_BOLD
from printdeck.render.text import draw_string, shortened, string_width
from printdeck.units import mm_to_pt

CORNER_TILE_MM = 56.0
"""Least width of a tile naming the match in the slide's corner (``reveal: corner``); a tile
grows for a long name, into the band the round's heading leaves free."""
CORNER_NAME_PT = 13.0
"""The tile's name's size, made smaller (down to 7 pt) for a long name to fit its tile."""


def corner_answer(
    canvas: Canvas,
    art: ArtLibrary,
    shared: Sequence[SymbolSpec],
    card_colour: str,
    band_mm: tuple[float, float, float, float],
    name_colour: str,
) -> None:
    """The match's picture and name on white tiles in a row ending at the right of
    ``band_mm`` (``(left, bottom, right, top)``, mm: the band above the cards, so the tiles
    never cover a card), in the order given: the left card's face of the match first, then
    the right card's (a symbol with faces shows the picture on one card and the word on the
    other). A tile grows for a long name, which is set smaller where it must, in ``name_colour``."""
    left, bottom, right, top = band_mm
    tile_h = min(20.0, top - bottom)
    widest = (right - left - 4.0 * (len(shared) - 1)) / max(len(shared), 1)
    pt_per_mm = mm_to_pt(1.0)
    widths = [
        min(widest, max(CORNER_TILE_MM, 25.0 + string_width(s.name, SANS_BOLD, CORNER_NAME_PT) / pt_per_mm))
        for s in shared
    ]
    x1 = right
    for symbol, width in reversed(list(zip(shared, widths))):
        x0, y0 = x1 - width, top - tile_h
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.roundRect(mm_to_pt(x0), mm_to_pt(y0), mm_to_pt(width), mm_to_pt(tile_h), mm_to_pt(3.0), stroke=0, fill=1)
        draw_fitted_symbol(canvas, art, symbol, (x0 + 10.0, y0 + tile_h / 2.0), tile_h - 4.0, card_colour)
        canvas.setFillColor(HexColor(name_colour))
        name, size_pt = fitted_name(symbol.name, mm_to_pt(width - 23.0))
        canvas.setFont(SANS_BOLD, size_pt)
        draw_string(canvas, mm_to_pt(x0 + 21.0), mm_to_pt(y0 + tile_h / 2.0 - size_pt * 0.12), name)
        x1 = x0 - 4.0


def fitted_name(name: str, room_pt: float, sizes_pt: tuple[float, float] = (CORNER_NAME_PT, 7.0)) -> tuple[str, float]:
    """``name`` and a size (``sizes_pt``: from the first down to the second) at which it
    fits ``room_pt``; a name too long at the least size loses its end to an ellipsis."""
    largest, least = sizes_pt
    width = string_width(name, SANS_BOLD, largest)
    size = max(least, min(largest, largest * room_pt / max(width, 1e-6)))
    return shortened(name, SANS_BOLD, size, room_pt), size
