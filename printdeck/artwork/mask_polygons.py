"""From an ink mask to polygons: the traced ink and the collision outline a silhouette keeps
(:mod:`printdeck.artwork.tracing` rasterises the drawing and makes the silhouette).

:func:`mask_to_polygon` turns a mask's pixels into polygons that contain every inked pixel
whole; :func:`collision_outline` closes gaps narrower than :data:`CLOSING_PIXELS`, fills the
holes (those smaller than a given area), simplifies by :data:`SIMPLIFY_PIXELS` and buffers
outward until the result contains the ink.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from printdeck.artwork.faces import opencv

CLOSING_PIXELS = 2
SIMPLIFY_PIXELS = 1.5


def dilate(mask: np.ndarray) -> np.ndarray:
    """Grow a boolean mask by one pixel in all 8 directions; ``(H, W) bool`` -> ``(H+2, W+2) bool``.

    The result is padded by one pixel on each side, so pixel (r, c) of the input is
    pixel (r+1, c+1) of the output.
    """
    h, w = mask.shape
    out = np.zeros((h + 2, w + 2), dtype=bool)
    for dy in range(3):
        for dx in range(3):
            out[dy : dy + h, dx : dx + w] |= mask
    return out


def mask_to_polygon(mask: np.ndarray, origin_px: float = -1.0) -> BaseGeometry:
    """Return polygons covering a mask's pixels, in pixel units: traced as contours
    (OpenCV ``findContours``) of the pixel corners that touch ink.

    The traced region is the union of the inked pixels, plus, where the boundary turns
    inward, half a pixel's triangle (and a hole one pixel across is filled), so it
    contains every inked pixel whole and is never smaller than the ink; a contour
    steps diagonally only across a pixel with a corner outside the ink. Should the
    contours not make valid polygons, the exact union of the pixels is used instead.

    Args:
        mask: ``(H, W) bool``; pixel (r, c) covers ``[c, c+1] x [r, r+1]`` (y down),
            shifted by ``origin_px`` in both axes (``-1`` undoes :func:`dilate`'s pad).

    Returns:
        A Polygon or MultiPolygon (y still pointing down).
    """
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    h, w = mask.shape
    corners = np.zeros((h + 3, w + 3), dtype=np.uint8)  # corner (r, c) at [r + 1, c + 1]: a free border
    for dy in (1, 2):
        for dx in (1, 2):
            corners[dy : dy + h, dx : dx + w] |= mask.astype(np.uint8)
    contours, hierarchy = cv2.findContours(corners, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return _pixel_union(mask, origin_px)
    rings = [c.reshape(-1, 2).astype(float) + (origin_px - 1.0) for c in contours]
    links = hierarchy.reshape(-1, 4)
    polys = []
    for i, ring in enumerate(rings):
        if links[i, 3] < 0 and len(ring) >= 3:
            holes = [
                shapely.linearrings(rings[k]) for k in range(len(rings)) if links[k, 3] == i and len(rings[k]) >= 3
            ]
            polys.append(shapely.polygons(shapely.linearrings(ring), holes=holes or None))
    merged = shapely.multipolygons(polys) if len(polys) != 1 else polys[0]
    if not polys or not merged.is_valid:
        return _pixel_union(mask, origin_px)
    return merged


def _pixel_union(mask: np.ndarray, origin_px: float) -> BaseGeometry:
    """The exact union of a mask's pixels (see :func:`mask_to_polygon`), from boxes."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    d = np.diff(padded, axis=1)
    rows_s, cols_s = np.nonzero(d == 1)
    _, cols_e = np.nonzero(d == -1)
    boxes = _merge_runs(rows_s, cols_s, cols_e)
    b = np.asarray(boxes, dtype=float) + origin_px
    geoms = shapely.box(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
    return shapely.union_all(geoms)


def _merge_runs(rows: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Merge identical row runs of consecutive rows into tall boxes (x0, y0, x1, y1)."""
    open_runs: dict[tuple[int, int], int] = {}
    boxes: list[tuple[int, int, int, int]] = []
    order = np.lexsort((starts, rows))
    by_row: dict[int, list[tuple[int, int]]] = {}
    for i in order:
        by_row.setdefault(int(rows[i]), []).append((int(starts[i]), int(ends[i])))
    prev_row = None
    for r in sorted(by_row):
        runs = set(by_row[r])
        if prev_row is None or r != prev_row + 1:
            for (s, e), r0 in open_runs.items():
                boxes.append((s, r0, e, prev_row + 1))  # type: ignore[operator]
            open_runs = {}
        for key in [k for k in open_runs if k not in runs]:
            boxes.append((key[0], open_runs.pop(key), key[1], r))
        for key in runs:
            open_runs.setdefault(key, r)
        prev_row = r
    for (s, e), r0 in open_runs.items():
        boxes.append((s, r0, e, prev_row + 1))  # type: ignore[operator]
    return boxes


def collision_outline(
    ink_mask: np.ndarray, shape: BaseGeometry, to_box: list[float], unit: float, keep_holes: float = math.inf
) -> BaseGeometry:
    """Return a simplified shape containing ``shape``, holes smaller than ``keep_holes`` filled.

    A morphological closing of the ink mask by
    :data:`CLOSING_PIXELS` fills narrow gaps and small holes; the remaining holes
    smaller than ``keep_holes`` (box units²; every hole by default, so no symbol sits
    inside another; :data:`~printdeck.artwork.tracing.HOLE_MIN_AREA` when the theme lets
    symbols nest) are filled, and Douglas-Peucker simplification (tolerance
    :data:`SIMPLIFY_PIXELS`) is followed by an outward mitred buffer of the same size. The result is checked
    to contain ``shape`` (the buffer doubles until it does).

    Args:
        ink_mask: ``(H+2, W+2) bool`` ink padded by one empty pixel on each side.
        shape: The same ink as polygons, in normalised units.
        to_box: Affine map (shapely order) from pixel to normalised box units.
        unit: One trace pixel in normalised units (the larger side).
    """
    closed = ink_mask
    for _ in range(CLOSING_PIXELS):
        closed = dilate(closed)
    for _ in range(CLOSING_PIXELS):
        closed = ~dilate(~closed)[1:-1, 1:-1]
    closed = closed[CLOSING_PIXELS:-CLOSING_PIXELS, CLOSING_PIXELS:-CLOSING_PIXELS] if CLOSING_PIXELS else closed
    pix = mask_to_polygon(closed | ink_mask)
    tol = SIMPLIFY_PIXELS * unit
    pix = shapely.affinity.affine_transform(pix, to_box)
    filled = _fill_holes(pix, keep_holes).simplify(tol)
    pad = tol
    for _ in range(6):
        cand = filled.buffer(pad, join_style="mitre", mitre_limit=2.0)
        if cand.contains(shape):
            return _fill_holes(cand, keep_holes)
        pad *= 2
    return _fill_holes(pix, math.inf)


def _fill_holes(geom: BaseGeometry, keep_area: float) -> BaseGeometry:
    """Fill every hole smaller than ``keep_area``; parts inside a filled hole disappear.

    Holes at least ``keep_area`` big (e.g. the inside of a ring) stay open, so other
    symbols may sit in them.
    """
    polys = []
    for part in shapely.get_parts(geom):
        holes = [r for r in part.interiors if shapely.area(shapely.polygons(r)) >= keep_area]
        polys.append(shapely.polygons(part.exterior, holes=holes or None))
    if len(polys) == 1:
        return polys[0]
    polys.sort(key=lambda p: -p.area)
    kept: list[BaseGeometry] = []
    for p in polys:
        if not any(k.contains(p) for k in kept):
            kept.append(p)
    merged = shapely.multipolygons(kept)
    return merged if merged.is_valid else shapely.union_all(kept)
