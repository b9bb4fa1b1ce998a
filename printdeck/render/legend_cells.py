"""A legend cell's faces: one symbol's drawings in its cell's art box, and the frame round them.

One face fills the box. A picture and a word (a vocabulary deck's "cat" and "gato") are
set one above the other, the word across the cell's whole width, as a flash card sets
them: side by side the word had 11 mm and "zanahoria" printed at 6.5 pt. Other faces sit
side by side, three and more in two rows, with thin grey rules between them, so "3 × 9"
and "27" read as two faces and not as "3 × 927". Every word is set as text at
:data:`LEGEND_WORD_PT`, as tall as any other, smaller only where it must fit. Lengths are
mm on the page (origin at its lower left corner), text sizes pt.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printdeck.model import SymbolSpec
from printdeck.render.forms import ArtLibrary
from printdeck.render.page_faces import draw_fitted_symbol, draw_word_face, word_extent_mm, word_width_mm
from printdeck.units import mm_to_pt, pt_to_mm

LEGEND_CELL_MM = 32.0
"""Legend grid pitch, mm (artwork box 20 mm, name below)."""
LEGEND_ART_MM = 20.0
"""A legend cell's art box, mm: the height its faces fill (one face: a square of it)."""
LEGEND_WORD_PT = 18.0
"""A word's size in the legend, points: every word as tall as any other, as text is, set
smaller only to fit its cell (a word fitted to a picture's square was tiny when long,
"summer", and huge when short, "ox" or 猫)."""
WORD_BASELINE_EM = 0.35
"""A legend word's baseline sits this far below the middle of its face's box, em (digits,
capitals and Chinese characters stand about the middle; descenders reach below)."""
FACE_GAP_MM = 4.0
"""Space between two faces of one symbol in a legend cell, mm (a thin rule in its middle)."""
CELL_ROOM_MM = 3.0
"""Space kept clear at each side of a legend cell of several faces, mm (its frame in it)."""
FACE_RULE = HexColor("#9a9a9a")
"""Colour of the rule between a symbol's faces in the legend, and of their cell's frame."""
STACKED_TOP_MM = 1.0
"""A picture set above its word starts this far below the art box's top, mm (clear of the
cell's frame)."""
STACKED_PICTURE_MM = 9.5
"""... in a square this big, mm (side by side it had 11)."""
STACKED_GAP_MM = 2.5
"""Between a picture and its word, mm (a thin rule in its middle); the word's band is the
rest of the art box: 7 mm, room for an 18 pt word's ascenders and descenders."""
STACKED_RULE_MM = 14.0
"""The rule between a picture and its word, mm long."""


def draw_cell_faces(
    canvas: Canvas, art: ArtLibrary, faces: Sequence[SymbolSpec], centre_mm: tuple[float, float], card_colour: str
) -> None:
    """A symbol's faces in the art box centred at ``centre_mm`` (see the module docstring):
    a picture fitted into its square, a word set as text in its home colour; on a tile of
    ``card_colour`` what would not show on the white page."""
    if _picture_and_word(art, faces):
        _stacked(canvas, art, faces, centre_mm, card_colour)
        return
    rows, cols, gap_mm, box_mm = face_grid(len(faces))
    face_rows = [faces[row * cols : (row + 1) * cols] for row in range(rows)]
    word_pt = _cell_word_pt(art, face_rows, gap_mm, box_mm)
    for row, row_faces in enumerate(face_rows):
        y_mm = centre_mm[1] + ((rows - 1) / 2.0 - row) * (box_mm + gap_mm)
        _face_row(canvas, art, row_faces, (centre_mm[0], y_mm), (box_mm, gap_mm, word_pt), card_colour)
    if rows > 1:
        _face_rule(canvas, centre_mm, cols * (box_mm + gap_mm) - gap_mm, upright=False)


def _picture_and_word(art: ArtLibrary, faces: Sequence[SymbolSpec]) -> bool:
    """Whether ``faces`` are two, one a picture and one a word (set one above the other)."""
    return len(faces) == 2 and sorted(art.art(face.id).word for face in faces) == [False, True]


def _stacked(
    canvas: Canvas, art: ArtLibrary, faces: Sequence[SymbolSpec], centre_mm: tuple[float, float], card_colour: str
) -> None:
    """A picture and a word one above the other, in their order, in the art box centred at
    ``centre_mm``, :data:`STACKED_TOP_MM` below its top: the picture in a
    :data:`STACKED_PICTURE_MM` square, the word in the band the box leaves it, across the
    cell's whole width less :data:`CELL_ROOM_MM` a side."""
    band_mm = LEGEND_ART_MM - STACKED_TOP_MM - STACKED_PICTURE_MM - STACKED_GAP_MM
    top_mm = centre_mm[1] + LEGEND_ART_MM / 2.0 - STACKED_TOP_MM
    boxes = [band_mm if art.art(face.id).word else STACKED_PICTURE_MM for face in faces]
    middles = [top_mm - boxes[0] / 2.0, top_mm - boxes[0] - STACKED_GAP_MM - boxes[1] / 2.0]
    for face, box_mm, middle_mm in zip(faces, boxes, middles):  # each a row of one face
        word_pt = _cell_word_pt(art, [[face]], 0.0, box_mm)
        _face_row(canvas, art, [face], (centre_mm[0], middle_mm), (box_mm, 0.0, word_pt), card_colour)
    rule_y_mm = top_mm - boxes[0] - STACKED_GAP_MM / 2.0
    _face_rule(canvas, (centre_mm[0], rule_y_mm), STACKED_RULE_MM, upright=False)


def _face_row(
    canvas: Canvas,
    art: ArtLibrary,
    faces: Sequence[SymbolSpec],
    centre_mm: tuple[float, float],
    sizes: tuple[float, float, float],
    card_colour: str,
) -> None:
    """One row of a legend cell's faces side by side, centred at ``centre_mm``, a thin rule
    in each gap between two. ``sizes``: ``(box mm, gap mm, word pt)``: a picture fitted
    into a box's square, a word set as text at the word size on the row's baseline
    (:data:`WORD_BASELINE_EM` below its middle), as wide as its letters."""
    box_mm, gap_mm, word_pt = sizes
    is_word = [art.art(face.id).word for face in faces]
    widths = [word_width_mm(f, word_pt) if word else box_mm for f, word in zip(faces, is_word)]
    x_mm = centre_mm[0] - (sum(widths) + (len(faces) - 1) * gap_mm) / 2.0
    baseline_mm = centre_mm[1] - WORD_BASELINE_EM * pt_to_mm(word_pt)
    for k, (face, width) in enumerate(zip(faces, widths)):
        if is_word[k]:
            draw_word_face(canvas, art, face, (x_mm, baseline_mm), word_pt, (LEGEND_CELL_MM, box_mm), card_colour)
        else:
            draw_fitted_symbol(canvas, art, face, (x_mm + width / 2.0, centre_mm[1]), box_mm, card_colour)
        if k:
            _face_rule(canvas, (x_mm - gap_mm / 2.0, centre_mm[1]), box_mm, upright=True)
        x_mm += width + gap_mm


def _cell_word_pt(art: ArtLibrary, rows: Sequence[Sequence[SymbolSpec]], gap_mm: float, box_mm: float) -> float:
    """The size a legend cell sets its words at, pt: :data:`LEGEND_WORD_PT`, as every other
    cell's, or smaller where a row of its faces (``rows``, pictures ``box_mm`` wide,
    ``gap_mm`` apart) would be wider than the cell less :data:`CELL_ROOM_MM` a side, or a
    word's ink would reach out of its row's ``box_mm`` (from the row's baseline)."""
    size_pt = LEGEND_WORD_PT
    drop_mm = WORD_BASELINE_EM * pt_to_mm(LEGEND_WORD_PT)
    for line in rows:
        words = [face for face in line if art.art(face.id).word]
        if not words:
            continue
        room_mm = LEGEND_CELL_MM - 2 * CELL_ROOM_MM - (len(line) - len(words)) * box_mm - (len(line) - 1) * gap_mm
        natural_mm = sum(word_width_mm(w, LEGEND_WORD_PT) for w in words)
        size_pt = min(size_pt, LEGEND_WORD_PT * room_mm / max(natural_mm, 1e-6))
        for word in words:
            bottom_mm, top_mm = word_extent_mm(word, LEGEND_WORD_PT)
            size_pt = min(size_pt, LEGEND_WORD_PT * box_mm / 2.0 / max(top_mm - drop_mm, drop_mm - bottom_mm, 1e-6))
    return size_pt


def face_grid(n_faces: int) -> tuple[int, int, float, float]:
    """How a legend cell sets a symbol's ``n_faces`` faces (1 to 8) that are not a picture
    and a word: ``(rows, columns, gap between faces mm, face box mm)``; one face fills
    :data:`LEGEND_ART_MM`, two sit side by side :data:`FACE_GAP_MM` apart, three and more
    in two rows (4 faces: 8 mm boxes, 8 faces: 4.6 mm), the cell's sides
    :data:`CELL_ROOM_MM` clear.

    Examples:
        >>> face_grid(2)
        (1, 2, 4.0, 11.0)
        >>> face_grid(8)[:2]
        (2, 4)
    """
    if n_faces <= 1:
        return 1, 1, 0.0, LEGEND_ART_MM
    rows = 1 if n_faces == 2 else 2
    cols = -(-n_faces // rows)
    gap_mm = FACE_GAP_MM if cols <= 2 else FACE_GAP_MM / 1.6
    across = (LEGEND_CELL_MM - 2 * CELL_ROOM_MM - (cols - 1) * gap_mm) / cols
    return rows, cols, gap_mm, min(across, (LEGEND_ART_MM - (rows - 1) * gap_mm) / rows)


def cell_frame(canvas: Canvas, center_mm: tuple[float, float]) -> None:
    """The thin rounded frame round a legend cell of several faces (art and name), centred at ``center_mm``."""
    side_mm = LEGEND_CELL_MM - 3.0
    canvas.saveState()
    canvas.setStrokeColor(FACE_RULE)
    canvas.setLineWidth(0.5)
    x_pt, y_pt = mm_to_pt(center_mm[0] - side_mm / 2.0), mm_to_pt(center_mm[1] - side_mm / 2.0 - 1.0)
    canvas.roundRect(x_pt, y_pt, mm_to_pt(side_mm), mm_to_pt(side_mm), mm_to_pt(2.0), stroke=1, fill=0)
    canvas.restoreState()


def _face_rule(canvas: Canvas, centre_mm: tuple[float, float], box_mm: float, *, upright: bool) -> None:
    """A thin grey rule between faces of a legend cell, centred at ``centre_mm``: upright
    (between two faces of a row, 0.7 of ``box_mm`` long) or across (between two rows,
    ``box_mm`` long)."""
    half_pt = mm_to_pt(box_mm * (0.35 if upright else 0.5))
    x_pt, y_pt = mm_to_pt(centre_mm[0]), mm_to_pt(centre_mm[1])
    canvas.saveState()
    canvas.setStrokeColor(FACE_RULE)
    canvas.setLineWidth(0.6)
    if upright:
        canvas.line(x_pt, y_pt - half_pt, x_pt, y_pt + half_pt)
    else:
        canvas.line(x_pt - half_pt, y_pt, x_pt + half_pt, y_pt)
    canvas.restoreState()


_THEME_INDEX = re.compile(r"symbols\.(\d+)")


def theme_order(symbol: SymbolSpec) -> tuple[float, str, int]:
    """Where ``symbol`` stands in its theme's list (``theme_key`` ``symbols.3``, a face's
    ``symbols.3.faces.1`` too), then its file (a folder's pictures by name), then its id."""
    found = _THEME_INDEX.match(symbol.theme_key or "")
    return (int(found.group(1)) if found else math.inf, symbol.source, symbol.id)


def in_theme_order(
    cells: Sequence[int] | Sequence[Sequence[int]], symbols: Mapping[int, SymbolSpec]
) -> list[int] | list[Sequence[int]]:
    """The legend's cells (symbol ids, or groups of a symbol's faces' ids: see
    :func:`~printdeck.render.extras.legend_pages`) in the order the theme lists its symbols,
    as a teacher wrote the list (:func:`theme_order`), not in the deck's seeded order of ids
    ("bravo, golf, alpha" for a list starting "alpha, bravo").

    Raises:
        KeyError: A cell names a symbol ``symbols`` does not hold.
    """

    def first(cell: int | Sequence[int]) -> SymbolSpec:
        return symbols[cell if isinstance(cell, int) else cell[0]]

    return sorted(cells, key=lambda cell: theme_order(first(cell)))  # type: ignore[return-value]
