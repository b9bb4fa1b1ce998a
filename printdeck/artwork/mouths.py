"""Open mouths: the concavities of a shape that its ink surrounds over most of a turn.

A closed hole (a ring's inside) is filled in every collision outline, so no symbol sits
inside another (they would read as one symbol). An open ring (a C, a horseshoe, a
crescent's bay) has no hole, yet a symbol in its mouth reads the same way. So a point
of the outline's convex hull that is not ink counts as *enclosed* when rays from it in
at least :data:`ENCLOSED_SHARE` of :data:`DIRECTIONS` evenly spread directions meet the
shape's ink (at any distance); :func:`fill_mouths` adds the enclosed points to the
outline (on a grid of :data:`GRID` cells across the box's longer side, each enclosed
cell whole), so the layout keeps other symbols out of them as it does out of holes.
Lengths are normalised box units (see :mod:`printdeck.artwork.tracing`).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

GRID = 48  # cells across the box's longer side
DIRECTIONS = 16  # rays cast from each cell
ENCLOSED_SHARE = 0.8  # a cell whose rays meet ink in at least this share of directions is in a mouth
MIN_MOUTH_SHARE = 0.02  # mouths smaller than this share of the outline's area are left alone


def enclosed_cells(ink: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """``bool`` like ``ink``: the ``candidates`` cells whose rays meet ink in at least
    :data:`ENCLOSED_SHARE` of :data:`DIRECTIONS` directions.

    Args:
        ink: ``(H, W) bool`` ink cells (row 0 at the top).
        candidates: ``(H, W) bool`` cells to test (empty cells of the convex hull).
    """
    rows, cols = np.nonzero(candidates)
    out = np.zeros_like(ink)
    if not len(rows):
        return out
    h, w = ink.shape
    steps = np.arange(1, math.ceil(math.hypot(h, w)) + 1)
    hits = np.zeros(len(rows), dtype=int)
    for k in range(DIRECTIONS):
        t = 2 * math.pi * k / DIRECTIONS
        r = np.rint(rows[:, None] + 0.5 - steps[None, :] * math.sin(t) - 0.5).astype(int)
        c = np.rint(cols[:, None] + 0.5 + steps[None, :] * math.cos(t) - 0.5).astype(int)
        ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        met = np.zeros(r.shape, dtype=bool)
        met[ok] = ink[r[ok], c[ok]]
        hits += met.any(axis=1)
    out[rows, cols] = hits >= ENCLOSED_SHARE * DIRECTIONS
    return out


def fill_mouths(outline: BaseGeometry) -> BaseGeometry:
    """The outline with its open mouths (see the module docstring) added; the outline
    itself when it has none bigger than :data:`MIN_MOUTH_SHARE` of its area."""
    hull = shapely.convex_hull(outline)
    if hull.area - outline.area < MIN_MOUTH_SHARE * outline.area:
        return outline
    x0, y0, x1, y1 = hull.bounds
    cell = max(x1 - x0, y1 - y0) / GRID
    nx, ny = max(1, math.ceil((x1 - x0) / cell)), max(1, math.ceil((y1 - y0) / cell))
    xs = x0 + (np.arange(nx) + 0.5) * cell
    ys = y1 - (np.arange(ny) + 0.5) * cell
    gx, gy = np.meshgrid(xs, ys)
    shapely.prepare(outline)
    shapely.prepare(hull)
    ink = shapely.intersects_xy(outline, gx, gy)
    candidates = shapely.contains_xy(hull, gx, gy) & ~ink
    mouth = enclosed_cells(ink, candidates)
    if mouth.sum() * cell * cell < MIN_MOUTH_SHARE * outline.area:
        return outline
    r, c = np.nonzero(mouth)
    boxes = shapely.box(x0 + c * cell, y1 - (r + 1) * cell, x0 + (c + 1) * cell, y1 - r * cell)
    grown = shapely.union_all([outline, *boxes.tolist()])
    pad = cell / 2
    for _ in range(6):  # simplified (the cells' staircase), then grown back over the union
        smooth = grown.simplify(pad).buffer(pad, join_style="mitre", mitre_limit=2.0)
        if smooth.is_valid and smooth.contains(grown):
            return smooth
        pad *= 2
    return grown
