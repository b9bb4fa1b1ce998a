"""A symbol's one drawing on a white page: the legend's faces and the slides' answers.

A picture is fitted into a square (:func:`draw_fitted_symbol`); a word is set as a line of
text, every word at one size on a baseline (:func:`draw_word_face`, :func:`word_width_mm`).
Either sits on a tile of the cards' colour where it would not show on white. Geometry in
mm on the page.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.artwork import drawing
from printdeck.model import SymbolSpec
from printdeck.render.forms import ArtLibrary
from printdeck.render.proof import shows_on_white
from printdeck.render.vector_code import Art
from printdeck.units import mm_to_pt, pt_to_mm

TILE_ROOM_MM = 1.0
"""A card-coloured tile reaches this far round the symbol's box, mm."""


def _card_tile(canvas: Canvas, center_mm: tuple[float, float], box_mm: tuple[float, float], colour: str) -> None:
    """A rounded rectangle of the cards' colour behind a symbol's ``box_mm`` (width, height)
    that would not show on white."""
    w_mm, h_mm = (side + 2 * TILE_ROOM_MM for side in box_mm)
    canvas.saveState()
    canvas.setFillColor(HexColor(colour))
    x_pt, y_pt = mm_to_pt(center_mm[0] - w_mm / 2.0), mm_to_pt(center_mm[1] - h_mm / 2.0)
    canvas.roundRect(x_pt, y_pt, mm_to_pt(w_mm), mm_to_pt(h_mm), mm_to_pt(min(w_mm, h_mm) / 8.0), stroke=0, fill=1)
    canvas.restoreState()


def draw_fitted_symbol(
    canvas: Canvas,
    art: ArtLibrary,
    symbol: SymbolSpec,
    center_mm: tuple[float, float],
    box_mm: float,
    card_colour: str = "#ffffff",
) -> None:
    """A symbol's one drawing fitted upright in a ``box_mm`` square centred at ``center_mm``
    (mm on the white page): the legend's pictures and the slides' answers (a word in its
    home colour); a symbol that would not show on white (a white icon made for coloured
    cards) on a tile of the cards' ``card_colour``."""
    if card_colour.lower() != "#ffffff" and not shows_on_white(symbol):
        _card_tile(canvas, center_mm, (box_mm, box_mm), card_colour)
    a = art.art(symbol.id)
    scale = mm_to_pt(box_mm) / max(a.width_pt, a.height_pt)
    canvas.saveState()
    canvas.translate(mm_to_pt(center_mm[0]), mm_to_pt(center_mm[1]))
    canvas.scale(scale, scale)
    canvas.translate(-a.width_pt / 2.0, -a.height_pt / 2.0)
    _paint(canvas, a, symbol)
    canvas.restoreState()


def draw_word_face(
    canvas: Canvas,
    art: ArtLibrary,
    word: SymbolSpec,
    baseline_mm: tuple[float, float],
    size_pt: float,
    room_mm: tuple[float, float],
    card_colour: str = "#ffffff",
) -> float:
    """A word's drawing set as a line of text in its home colour: at ``size_pt`` (its em, so
    every word stands as tall as any other, long or short), its baseline starting at
    ``baseline_mm`` (mm on the white page), and smaller only where its ink would be wider or
    taller than ``room_mm``; on a tile of ``card_colour`` where it would not show on white.
    Returns its width, mm.

    Raises:
        ValueError: ``word`` is not a word.
    """
    x0, y0, x1, y1 = _ink_em(word)
    em_mm = min(pt_to_mm(size_pt), room_mm[0] / (x1 - x0), room_mm[1] / (y1 - y0))
    w_mm, h_mm = (x1 - x0) * em_mm, (y1 - y0) * em_mm
    corner_mm = (baseline_mm[0], baseline_mm[1] + y0 * em_mm)
    if card_colour.lower() != "#ffffff" and not shows_on_white(word):
        _card_tile(canvas, (corner_mm[0] + w_mm / 2.0, corner_mm[1] + h_mm / 2.0), (w_mm, h_mm), card_colour)
    a = art.art(word.id)
    scale = mm_to_pt(w_mm) / a.width_pt
    canvas.saveState()
    canvas.translate(mm_to_pt(corner_mm[0]), mm_to_pt(corner_mm[1]))
    canvas.scale(scale, scale)
    _paint(canvas, a, word)
    canvas.restoreState()
    return w_mm


def word_width_mm(word: SymbolSpec, size_pt: float) -> float:
    """How wide :func:`draw_word_face` sets ``word`` at ``size_pt`` (its ink), mm.

    Raises:
        ValueError: ``word`` is not a word.
    """
    x0, _, x1, _ = _ink_em(word)
    return (x1 - x0) * pt_to_mm(size_pt)


def word_extent_mm(word: SymbolSpec, size_pt: float) -> tuple[float, float]:
    """How far :func:`draw_word_face` sets ``word``'s ink at ``size_pt`` from its baseline:
    ``(bottom, top)``, mm above it (``bottom`` below zero for a descender).

    Raises:
        ValueError: ``word`` is not a word.
    """
    _, y0, _, y1 = _ink_em(word)
    return y0 * pt_to_mm(size_pt), y1 * pt_to_mm(size_pt)


def _ink_em(word: SymbolSpec) -> tuple[float, float, float, float]:
    """A word's ink box, em from the start of its baseline (its form's box).

    Raises:
        ValueError: ``word`` is not a word.
    """
    shaped = drawing(word).word
    if shaped is None:
        raise ValueError(f"symbol {word.name!r} is not a word")
    return shaped.ink_em


def _paint(canvas: Canvas, a: Art, symbol: SymbolSpec) -> None:
    """``symbol``'s form ``a`` where the canvas now stands, a word in its home colour (its
    form paints in the current fill colour)."""
    if a.word:
        canvas.setFillColor(HexColor(symbol.color))
    canvas.doForm(a.form)
