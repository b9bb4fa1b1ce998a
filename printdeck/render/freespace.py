"""Finding empty room on an imposed sheet for the footer (ruler, notes, credits).

Pure geometry with numpy: the cards' bleed discs, their (axis-aligned) cut marks
and footer items already placed are keep-out zones grown by ``KEEP_CLEAR_MM``; a
footer item is an axis-aligned rectangle that must lie inside the page margins
and clear every zone. All candidate positions on a grid are tested at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Rect = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in mm from the page's bottom-left corner."""

Segment = tuple[tuple[float, float], tuple[float, float]]
"""A line segment ((x0, y0), (x1, y1)) in mm."""

KEEP_CLEAR_MM = 1.5
"""Distance every footer item keeps from a card's bleed, a cut mark or another item."""


@dataclass(frozen=True)
class KeepOut:
    """Forbidden zones: discs ``circles`` (n, 3) = (cx, cy, r) mm and boxes ``rects`` (m, 4) mm."""

    circles: np.ndarray
    rects: np.ndarray


def keepout_zone(
    centers_mm: Sequence[tuple[float, float]],
    outer_radius_mm: float,
    marks: Sequence[Segment] = (),
    taken: Sequence[Rect] = (),
) -> KeepOut:
    """Everything a footer item may not touch, grown by ``KEEP_CLEAR_MM``.

    Args:
        centers_mm: Card centres on the page, mm, shape (n, 2).
        outer_radius_mm: Cut radius + bleed, mm.
        marks: Cut-mark segments, mm (their bounding boxes are used).
        taken: Rectangles already used by other footer items, mm.
    """
    c = KEEP_CLEAR_MM
    circles = np.array([(x, y, outer_radius_mm + c) for x, y in centers_mm], dtype=float).reshape(-1, 3)
    boxes = [(min(a[0], b[0]) - c, min(a[1], b[1]) - c, max(a[0], b[0]) + c, max(a[1], b[1]) + c) for a, b in marks]
    boxes += [(r[0] - c, r[1] - c, r[2] + c, r[3] + c) for r in taken]
    return KeepOut(circles, np.array(boxes, dtype=float).reshape(-1, 4))


def _free(x0: np.ndarray, y0: np.ndarray, w: float, h: float, zone: KeepOut) -> np.ndarray:
    """Which rectangles [x0, x0 + w] x [y0, y0 + h] (arrays) clear the zone."""
    ok = np.ones(np.broadcast(x0, y0).shape, dtype=bool)
    lo, hi = float(np.min(y0)), float(np.max(y0)) + h
    centre_y, radius = zone.circles[:, 1], zone.circles[:, 2]
    circles = zone.circles[(centre_y + radius > lo) & (centre_y - radius < hi)]
    rects = zone.rects[(zone.rects[:, 3] > lo) & (zone.rects[:, 1] < hi)]
    for cx, cy, r in circles:
        dx = np.maximum(np.maximum(x0 - cx, cx - (x0 + w)), 0.0)
        dy = np.maximum(np.maximum(y0 - cy, cy - (y0 + h)), 0.0)
        ok &= dx * dx + dy * dy >= r * r
    for bx0, by0, bx1, by1 in rects:
        ok &= (x0 >= bx1) | (x0 + w <= bx0) | (y0 >= by1) | (y0 + h <= by0)
    return ok


def find_spot(size_mm: tuple[float, float], inner_mm: Rect, zone: KeepOut, step_mm: float = 0.5) -> Rect | None:
    """Lowest free place for a rectangle, nearest the page's vertical axis.

    Args:
        size_mm: (width, height) of the item, mm.
        inner_mm: The area inside the page margins, (x0, y0, x1, y1) mm.
        zone: Keep-out zones from :func:`keepout_zone`.
        step_mm: Search grid pitch, mm.

    Returns:
        The rectangle (x0, y0, x1, y1) in mm, or ``None`` if it fits nowhere.
    """
    w, h = size_mm
    x0, y0, x1, y1 = inner_mm
    if w > x1 - x0 or h > y1 - y0:
        return None
    xs = np.arange(x0, x1 - w + 1e-9, step_mm)
    ys = np.arange(y0, y1 - h + 1e-9, step_mm)
    mid = (x0 + x1) / 2.0
    xs = xs[np.argsort(np.abs(xs + w / 2.0 - mid), kind="stable")]
    for start in range(0, ys.size, 16):  # bottom-up in bands: usually done in the first
        band = ys[start : start + 16]
        free = _free(xs[None, :], band[:, None], w, h, zone)
        rows = np.flatnonzero(free.any(axis=1))
        if rows.size:
            row = int(rows[0])
            x, y = float(xs[int(np.argmax(free[row]))]), float(band[row])
            return (x, y, x + w, y + h)
    return None
