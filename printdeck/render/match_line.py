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
from printdeck.render.page_faces import draw_fitted_symbol, draw_word_face, word_extent_mm, word_width_mm
from printdeck.render.pdf_fonts import SANS_BOLD
from printdeck.render.text import draw_string, shortened, string_width
from printdeck.units import mm_to_pt, pt_to_mm

CORNER_TILE_MM = 56.0
"""Least width of a tile naming the match in the slide's corner (``reveal: corner``); a tile
grows for a long name, into the band the round's heading leaves free."""
CORNER_NAME_PT = 13.0
"""The tile's name's size, made smaller (down to :data:`CORNER_LEAST_NAME_PT`) for a long
name to fit its tile."""
CORNER_LEAST_NAME_PT = 7.0
"""The least size a tile's name is set at, points; a name too long then is cut short."""
NAME_DROP_MM_PER_PT = 0.12
"""A tile's name's baseline sits below the tile's middle by this much a point of its size, mm."""
CORNER_WORD_PT = 24.0
"""A word's size in a corner tile, points: every word as tall as any other, as text is, on
its name's baseline, set smaller only to fit (a word fitted to a picture's square was tiny
when long, "summer", and large when short, "ox")."""
PICTURE_SLOT_MM = 21.0
"""A corner tile's picture: a square filling the tile's height less 4 mm, centred 10 mm
from its left; its name starts this far from the tile's left, mm."""
WORD_ROOM_MM = (3.0, 4.0)
"""Room left of a corner tile's word and between it and its name, mm."""
WORDS_SHARE = 0.8
"""The most of a match's room on its line its words take, however long (the name keeps the
rest, cut short if it must be): the answer key's rows, the corner tiles."""


def corner_answer(
    canvas: Canvas,
    art: ArtLibrary,
    shared: Sequence[SymbolSpec],
    card_colour: str,
    band_mm: tuple[float, float, float, float],
    name_colour: str,
) -> None:
    """The match's face and name on white tiles in a row ending at the right of ``band_mm``
    (``(left, bottom, right, top)``, mm: the band above the cards, so the tiles never cover a
    card), in the order given: the left card's face of the match first, then the right
    card's (a symbol with faces shows the picture on one card and the word on the other). A
    picture fills a square at the tile's left; a word is set as text at
    :data:`CORNER_WORD_PT` on its name's baseline (:func:`_tile_plan`). A tile grows for a
    long word or name, which are set smaller where they must, the name in ``name_colour``."""
    left, bottom, right, top = band_mm
    tile_h = min(20.0, top - bottom)
    widest = (right - left - 4.0 * (len(shared) - 1)) / max(len(shared), 1)
    plans = [_tile_plan(art, symbol, widest, tile_h) for symbol in shared]
    x1 = right
    for symbol, (width, face_mm, word_pt) in reversed(list(zip(shared, plans))):
        x0, y0 = x1 - width, top - tile_h
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.roundRect(mm_to_pt(x0), mm_to_pt(y0), mm_to_pt(width), mm_to_pt(tile_h), mm_to_pt(3.0), stroke=0, fill=1)
        name, size_pt = fitted_name(symbol.name, mm_to_pt(width - face_mm - 2.0))
        # a word and its name share the baseline of a name at full size (a picture's name: its own)
        baseline_mm = y0 + tile_h / 2.0 - (size_pt if word_pt is None else CORNER_NAME_PT) * NAME_DROP_MM_PER_PT
        if word_pt is None:
            draw_fitted_symbol(canvas, art, symbol, (x0 + 10.0, y0 + tile_h / 2.0), tile_h - 4.0, card_colour)
        else:
            room_mm = (face_mm, tile_h)  # already fitted: the width and height it may take
            draw_word_face(canvas, art, symbol, (x0 + WORD_ROOM_MM[0], baseline_mm), word_pt, room_mm, card_colour)
        canvas.setFillColor(HexColor(name_colour))
        canvas.setFont(SANS_BOLD, size_pt)
        draw_string(canvas, mm_to_pt(x0 + face_mm), mm_to_pt(baseline_mm), name)
        x1 = x0 - 4.0


def _tile_plan(
    art: ArtLibrary, symbol: SymbolSpec, widest_mm: float, tile_h_mm: float
) -> tuple[float, float, float | None]:
    """A corner tile's ``(width mm, where its name starts mm from its left, word pt)``: a
    picture takes the tile's first :data:`PICTURE_SLOT_MM` and no word size (``None``); a
    word its own width at :data:`CORNER_WORD_PT` (:data:`WORD_ROOM_MM` round it), set
    smaller where it and its name do not fit ``widest_mm`` (:func:`words_beside_name_mm`)
    or its ink would reach out of a tile ``tile_h_mm`` tall. At least
    :data:`CORNER_TILE_MM` wide, at most ``widest_mm``."""
    name_mm = pt_to_mm(string_width(symbol.name, SANS_BOLD, CORNER_NAME_PT))
    if not art.art(symbol.id).word:
        return min(widest_mm, max(CORNER_TILE_MM, PICTURE_SLOT_MM + 4.0 + name_mm)), PICTURE_SLOT_MM, None
    natural_mm = word_width_mm(symbol, CORNER_WORD_PT)
    room_mm = widest_mm - sum(WORD_ROOM_MM) - 2.0
    name_pt = (CORNER_NAME_PT, CORNER_LEAST_NAME_PT)
    shrink = words_beside_name_mm(natural_mm, symbol.name, room_mm, name_pt) / max(natural_mm, 1e-6)
    bottom_mm, top_mm = word_extent_mm(symbol, CORNER_WORD_PT)
    above_mm = tile_h_mm / 2.0 - 1.0 + CORNER_NAME_PT * NAME_DROP_MM_PER_PT  # baseline to 1 mm below the top
    shrink = min(shrink, above_mm / max(top_mm, 1e-6), (tile_h_mm - above_mm - 2.0) / max(-bottom_mm, 1e-6))
    face_mm = natural_mm * shrink + sum(WORD_ROOM_MM)
    return min(widest_mm, max(CORNER_TILE_MM, face_mm + 4.0 + name_mm)), face_mm, CORNER_WORD_PT * shrink


def words_beside_name_mm(
    natural_mm: float, name: str, room_mm: float, name_pt: tuple[float, float], share: float = WORDS_SHARE
) -> float:
    """How wide a match's words are set before its name on one line: as wide as at their
    size (``natural_mm``) where they and the name at ``name_pt[0]`` fit ``room_mm``, else
    both smaller alike, the name down to ``name_pt[1]`` (the rest it cannot take is the
    words', up to ``share`` of the room; the name is then cut short, :func:`fitted_name`)."""
    name_mm = pt_to_mm(string_width(name, SANS_BOLD, name_pt[0]))
    shrink = max(min(1.0, room_mm / max(natural_mm + name_mm, 1e-6)), name_pt[1] / name_pt[0])
    return min(natural_mm * shrink, room_mm * share)


def fitted_name(
    name: str, room_pt: float, sizes_pt: tuple[float, float] = (CORNER_NAME_PT, CORNER_LEAST_NAME_PT)
) -> tuple[str, float]:
    """``name`` and a size (``sizes_pt``: from the first down to the second) at which it
    fits ``room_pt``; a name too long at the least size loses its end to an ellipsis."""
    largest, least = sizes_pt
    width = string_width(name, SANS_BOLD, largest)
    size = max(least, min(largest, largest * room_pt / max(width, 1e-6)))
    return shortened(name, SANS_BOLD, size, room_pt), size
