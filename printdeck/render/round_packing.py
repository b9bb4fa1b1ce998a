"""Where round cards sit on a full sheet (pure data, no ReportLab): every packing tried and
the best one, for :func:`printdeck.render.imposition.impose`.

Packings tried, for a card of outer diameter ``D`` (cut + 2 x bleed) and a centre
spacing ``s = D + gap``: a square grid, a hexagonal packing (rows of c and c - 1
cards, rows ``s * sqrt(3) / 2`` apart), and staggered rows of c cards shifted by
as much as the slack allows (rows ``sqrt(s^2 - dx^2)`` apart) -- each also with
rows and columns swapped. The packing with the most cards whose footer ruler
(:data:`RULER_BLOCK_MM`) still finds room wins.
"""

from __future__ import annotations

import math

from printdeck.render.freespace import Rect, find_spot, keepout_zone
from printdeck.render.round_marks import Points, cut_mark_segments

RULER_BLOCK_MM = (56.0, 5.0)
"""Footer ruler block: a 50 mm scale bar with mm ticks and labels, mm."""


_Candidate = tuple[str, Points, int, int, "Rect | None"]


def _best_packing(
    page_mm: tuple[float, float],
    inner_mm: tuple[float, float],
    outer_d_mm: float,
    gap_mm: float,
    margin_mm: float,
    room_mm: float,
    mark_room: bool = True,
) -> _Candidate:
    """Try every packing; most cards with a footer ruler wins, then fewest rows.

    Args:
        page_mm: Paper (width, height), mm.
        inner_mm: (width, height) the card centres' packing may span, bleeds
            included (paper minus margins and cut-mark room), mm.
        outer_d_mm: Card diameter with bleed, mm.
        gap_mm: Space between neighbouring bleeds, mm.
        margin_mm: Margin from the paper edge, mm.
        room_mm: Cut-mark room kept inside the margins, mm (already in ``inner_mm``).
        mark_room: Crop marks are planned for (the ruler keeps clear of them); else none.
    """
    pitch_mm = outer_d_mm + gap_mm
    margins = (margin_mm, margin_mm, page_mm[0] - margin_mm, page_mm[1] - margin_mm)
    found: list[_Candidate] = []
    for swapped in (False, True):
        w_mm, h_mm = (inner_mm[1], inner_mm[0]) if swapped else inner_mm
        for name, pts, cols, rows in _packings(w_mm, h_mm, outer_d_mm, pitch_mm):
            if swapped:
                pts = [(y, x) for x, y in pts]
                name, cols, rows = name + "-t", rows, cols
            centers = _centre_on_page(pts, page_mm)
            segments = cut_mark_segments(centers, outer_d_mm / 2.0, margins) if mark_room else []
            zone = keepout_zone(centers, outer_d_mm / 2.0, segments)
            ruler = find_spot(RULER_BLOCK_MM, margins, zone)
            found.append((name, centers, cols, rows, ruler))
    return max(found, key=lambda c: (c[4] is not None, len(c[1]), -c[3]))


def _packings(w_mm: float, h_mm: float, d_mm: float, pitch_mm: float) -> list[tuple[str, Points, int, int]]:
    """Centre lists (relative, first card at (0, 0), rows going down) fitting ``w_mm`` x ``h_mm``.

    Args:
        w_mm: Width available to the discs, mm.
        h_mm: Height available to the discs, mm.
        d_mm: Disc diameter (card with bleed), mm.
        pitch_mm: Least centre-to-centre distance (diameter + gap), mm.

    Returns:
        (name, centres in mm, columns, rows) for the square grid, the hexagonal
        packing and a staggered grid (when it differs).
    """
    s = pitch_mm
    cols = int((w_mm - d_mm) // s) + 1
    out: list[tuple[str, Points, int, int]] = []
    grid_rows = int((h_mm - d_mm) // s) + 1
    out.append(("grid", [(c * s, -r * s) for r in range(grid_rows) for c in range(cols)], cols, grid_rows))
    v = s * math.sqrt(3.0) / 2.0
    hex_rows = int((h_mm - d_mm) // v) + 1
    if cols >= 2:
        pts = [(c * s + (s / 2.0 if r % 2 else 0.0), -r * v) for r in range(hex_rows) for c in range(cols - (r % 2))]
        out.append(("hex", pts, cols, hex_rows))
    dx = min(s / 2.0, w_mm - d_mm - (cols - 1) * s)
    if dx > 1e-6:
        v2 = math.sqrt(s * s - dx * dx)
        rows2 = int((h_mm - d_mm) // v2) + 1
        pts = [(c * s + (dx if r % 2 else 0.0), -r * v2) for r in range(rows2) for c in range(cols)]
        out.append(("stagger", pts, cols, rows2))
    return out


def _centre_on_page(pts: Points, page_mm: tuple[float, float]) -> Points:
    """Shift a packing (mm) so its bounding box is centred on the page, rows top to bottom."""
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    ox = page_mm[0] / 2.0 - (min(xs) + max(xs)) / 2.0
    oy = page_mm[1] / 2.0 - (min(ys) + max(ys)) / 2.0
    ordered = sorted(pts, key=lambda p: (-round(p[1], 6), round(p[0], 6)))
    return [(x + ox, y + oy) for x, y in ordered]
