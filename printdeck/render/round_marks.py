"""The cut marks of round cards on a sheet (pure data, no ReportLab): radial ticks at each
card's four tangent points, one shared across the gap where two cards face each other, left
out where they would leave the margins or come too near another card's bleed. The marks of
square, rectangular and hexagonal cards are :mod:`printdeck.render.shaped`'s.
"""

from __future__ import annotations

import numpy as np

from printdeck.render.freespace import Rect, Segment
from printdeck.sheet_room import MARK_LENGTH_MM, ROUND_MARK_OFFSET_MM

MARK_OFFSET_MM = ROUND_MARK_OFFSET_MM
"""Cut marks start this far outside the bleed (at its edge, as a press's crop marks do
when the bleed is wider than their offset)."""
MARK_CLEAR_MM = 1.0
"""Cut marks stay at least this far from any other card's bleed (the facing card of a
shared mark aside)."""
SHARED_CLEAR_MM = 0.5
"""A mark shared across a gap keeps this far from both bleeds where the gap is wide enough
(``MARK_LENGTH_MM`` + 2 x this); in a narrower gap it spans the gap, at least ``MARK_LENGTH_MM``."""

Points = list[tuple[float, float]]


def cut_mark_segments(centers_mm: Points, outer_radius_mm: float, inner_mm: Rect) -> list[Segment]:
    """Radial cut marks at each card's four tangent points (top, bottom, left, right).

    Each mark starts ``MARK_OFFSET_MM`` outside the bleed and is ``MARK_LENGTH_MM`` long,
    never shorter. Where the mark's line meets a neighbour's bleed straight ahead, the
    two cards share one mark spanning the gap between their bleeds (at least
    ``MARK_LENGTH_MM`` wide, else no mark); a mark that would leave the margins or come
    within ``MARK_CLEAR_MM`` of another card's bleed is left out
    (:func:`missing_marks` counts them, so the build can say so).

    Args:
        centers_mm: Card centres on one page, mm, shape (n, 2).
        outer_radius_mm: Cut radius + bleed, mm.
        inner_mm: Printable area inside the margins (x0, y0, x1, y1), mm.

    Returns:
        Segments ((x0, y0), (x1, y1)) in mm, inner end first, each drawn once.
    """
    return _marks(centers_mm, outer_radius_mm, inner_mm)[0]


def missing_marks(centers_mm: Points, outer_radius_mm: float, inner_mm: Rect) -> int:
    """How many of the cards' tangent points get no whole cut mark (see :func:`cut_mark_segments`)."""
    return _marks(centers_mm, outer_radius_mm, inner_mm)[1]


def _marks(centers_mm: Points, outer_radius_mm: float, inner_mm: Rect) -> tuple[list[Segment], int]:
    out: list[Segment] = []
    missing = 0
    start_mm = outer_radius_mm + MARK_OFFSET_MM
    for i, (cx, cy) in enumerate(centers_mm):
        for ux, uy in ((0.0, 1.0), (0.0, -1.0), (-1.0, 0.0), (1.0, 0.0)):
            facing = _facing(centers_mm, i, (ux, uy), outer_radius_mm)
            if facing is not None:  # a neighbour straight ahead: one mark across the gap
                j, dist_mm = facing
                gap_mm = dist_mm - 2.0 * outer_radius_mm
                if gap_mm < MARK_LENGTH_MM - 1e-9:
                    missing += 1
                elif i < j:  # centred in the gap, clear of both bleeds where the gap allows
                    length_mm = max(MARK_LENGTH_MM, gap_mm - 2.0 * SHARED_CLEAR_MM)
                    start = outer_radius_mm + (gap_mm - length_mm) / 2.0
                    p0 = (cx + ux * start, cy + uy * start)
                    out.append((p0, (p0[0] + ux * length_mm, p0[1] + uy * length_mm)))
                continue
            others = [c for j, c in enumerate(centers_mm) if j != i]
            if _mark_clear((cx, cy), (ux, uy), start_mm, others, outer_radius_mm, inner_mm):
                p0 = (cx + ux * start_mm, cy + uy * start_mm)
                out.append((p0, (p0[0] + ux * MARK_LENGTH_MM, p0[1] + uy * MARK_LENGTH_MM)))
            else:
                missing += 1
    return out, missing


def _facing(
    centers_mm: Points, i: int, direction: tuple[float, float], outer_radius_mm: float
) -> tuple[int, float] | None:
    """The nearest card whose centre lies straight ahead of card ``i`` along ``direction``
    within reach of a mark, as (index, centre distance in mm), or None."""
    cx, cy = centers_mm[i]
    best: tuple[int, float] | None = None
    for j, (x, y) in enumerate(centers_mm):
        along = (x - cx) * direction[0] + (y - cy) * direction[1]
        across = abs((x - cx) * direction[1] - (y - cy) * direction[0])
        near = along - 2.0 * outer_radius_mm <= MARK_LENGTH_MM + 2.0 * MARK_CLEAR_MM
        if j != i and along > 0 and across < 1e-6 and near and (best is None or along < best[1]):
            best = (j, along)
    return best


def _mark_clear(
    center_mm: tuple[float, float],
    direction: tuple[float, float],
    start_mm: float,
    others_mm: Points,
    outer_radius_mm: float,
    inner_mm: Rect,
) -> bool:
    """Whether a whole mark from ``start_mm`` along the unit ``direction`` stays inside the
    margins and ``MARK_CLEAR_MM`` from every other card's bleed.

    Args:
        center_mm: The card's centre, mm.
        direction: Unit vector (ux, uy) of the mark, unitless.
        start_mm: Distance from the centre where the mark starts, mm.
        others_mm: The other cards' centres, mm, shape (n, 2).
        outer_radius_mm: Cut radius + bleed, mm.
        inner_mm: Area inside the margins (x0, y0, x1, y1), mm.
    """
    t = start_mm + np.linspace(0.0, MARK_LENGTH_MM, 61)
    x, y = center_mm[0] + direction[0] * t, center_mm[1] + direction[1] * t
    ok = (x >= inner_mm[0] - 1e-6) & (x <= inner_mm[2] + 1e-6) & (y >= inner_mm[1] - 1e-6) & (y <= inner_mm[3] + 1e-6)
    if others_mm:
        o = np.asarray(others_mm, dtype=float)
        dist = np.hypot(x[:, None] - o[None, :, 0], y[:, None] - o[None, :, 1])
        ok &= (dist >= outer_radius_mm + MARK_CLEAR_MM).all(axis=1)
    return bool(ok.all())
