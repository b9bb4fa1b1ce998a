"""Imposition and crop marks of square, rectangular and hexagonal cards (pure geometry, no ReportLab).

Grids of boxes for squares and rectangles, honeycombs for hexagons, each in two kinds:

- ``separate``: every card has its own bleed, ``gap`` between neighbouring bleeds;
- ``shared`` (``paper.cuts: shared``): the cards touch, neighbours share one cut line,
  and bleed runs only around the block.

Each is tried as the card stands and turned a quarter turn on the sheet (``turned``;
the card's layout turns with it); the most cards a sheet wins, then a footer ruler,
then upright cards. The block sits at the top of the sheet, centred across it, so the
footer has the room left. Crop marks (:func:`shape_marks`) extend a card's straight
cut lines outward from its corners (for shared cuts, each cut line beyond the block),
or a hexagon's corners radially, starting :data:`MARK_OFFSET_MM` outside the bleed and
whole (:data:`MARK_LENGTH_MM`) or left out where they would come within :data:`MARK_CLEAR_MM`
of a bleed or leave the margins.
Lengths are mm, page origin bottom-left.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from printdeck.cardshape import CardShape, Orientation, ShapeKind
from printdeck.render.freespace import Rect, Segment
from printdeck.sheet_room import MARK_LENGTH_MM, SHAPED_MARK_OFFSET_MM

MARK_OFFSET_MM = SHAPED_MARK_OFFSET_MM
"""Crop marks start this far outside the bleed, mm."""
MARK_CLEAR_MM = 1.0

Points = list[tuple[float, float]]
Layout = tuple[str, Points, int, int]  # (packing name, centres relative, columns, rows)


def card_on_sheet(shape: CardShape, turned: bool) -> CardShape:
    """The card's outline as it stands on the sheet (turned a quarter turn if ``turned``)."""
    if not turned:
        return shape
    if shape.kind == ShapeKind.HEXAGON:
        flip = Orientation.FLAT if shape.orientation == Orientation.POINTY else Orientation.POINTY
        return CardShape.hexagon(shape.across_corners_mm, flip)
    return CardShape(shape.kind, shape.height_mm, shape.width_mm, shape.corner_radius_mm)


def packings(
    shape: CardShape, bleed_mm: float, gap_mm: float, room_mm: tuple[float, float], shared: bool
) -> list[Layout]:
    """Candidate packings of ``shape`` (as it stands on the sheet) in ``room_mm`` (width,
    height: the paper inside its margins and mark room), centres relative (first card at
    the top left, rows going down)."""
    if shape.kind == ShapeKind.HEXAGON:
        if shape.orientation == Orientation.FLAT:  # a flat honeycomb is a pointy one transposed
            pointy = CardShape.hexagon(shape.across_corners_mm, Orientation.POINTY)
            out = packings(pointy, bleed_mm, gap_mm, (room_mm[1], room_mm[0]), shared)
            return [(n + "-t", [(-y, -x) for x, y in pts], r, c) for n, pts, c, r in out]
        return [_honeycomb(shape, bleed_mm, gap_mm, room_mm, shared)]
    return [_grid(shape, bleed_mm, gap_mm, room_mm, shared)]


def _grid(shape: CardShape, b: float, g: float, room: tuple[float, float], shared: bool) -> Layout:
    w, h = shape.width_mm, shape.height_mm
    if shared:
        px, py = w, h
        cols, rows = int((room[0] - 2 * b + 1e-9) // w), int((room[1] - 2 * b + 1e-9) // h)
    else:
        px, py = w + 2 * b + g, h + 2 * b + g
        cols, rows = int((room[0] + g + 1e-9) // px), int((room[1] + g + 1e-9) // py)
    pts = [(c * px, -r * py) for r in range(rows) for c in range(cols)]
    return ("shared-grid" if shared else "grid", pts, cols, rows)


def _honeycomb(shape: CardShape, b: float, g: float, room: tuple[float, float], shared: bool) -> Layout:
    """Pointy hexagons in rows, every other row shifted half a pitch."""
    flats, corners = shape.width_mm, shape.height_mm
    if shared:
        px, fb, cb = flats, flats + 2 * b, corners + 4 * b / math.sqrt(3)
    else:
        fb, cb = flats + 2 * b, corners + 4 * b / math.sqrt(3)
        px = fb + g
    py = px * math.sqrt(3) / 2
    cols = int((room[0] - fb + 1e-9) // px) + 1
    shifted = int((room[0] - fb - px / 2 + 1e-9) // px) + 1
    rows = int((room[1] - cb + 1e-9) // py) + 1 if room[1] >= cb else 0
    if cols <= 0 or rows <= 0:
        return ("honeycomb", [], 0, 0)
    pts = [
        (c * px + (px / 2 if r % 2 else 0.0), -r * py) for r in range(rows) for c in range(shifted if r % 2 else cols)
    ]
    return ("shared-honeycomb" if shared else "honeycomb", pts, cols, rows)


def place_on_page(
    pts: Points, shape: CardShape, bleed_mm: float, page_mm: tuple[float, float], top_mm: float
) -> Points:
    """Shift a packing so its block (bleeds included) is centred across the page and its
    top is ``top_mm`` below the paper's top edge; cards ordered row by row from the top."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    half_w, half_h = shape.width_mm / 2 + bleed_mm, shape.height_mm / 2 + bleed_mm
    if shape.kind == ShapeKind.HEXAGON:
        half_h = shape.offset(bleed_mm).height_mm / 2
    ox = page_mm[0] / 2.0 - (min(xs) + max(xs)) / 2.0
    oy = page_mm[1] - top_mm - half_h - max(ys)
    del half_w
    ordered = sorted(pts, key=lambda p: (-round(p[1], 6), round(p[0], 6)))
    return [(x + ox, y + oy) for x, y in ordered]


def bleed_union(centers_mm: Points, shape: CardShape, bleed_mm: float) -> shapely.Geometry:
    """Every card's printed area (its outline grown by the bleed) on the page, as one geometry."""
    grown = shape.offset(bleed_mm).vertices(64)
    return shapely.union_all([shapely.Polygon(grown + np.array(c)) for c in centers_mm])


def shape_marks(centers_mm: Points, shape: CardShape, bleed_mm: float, inner_mm: Rect, shared: bool) -> list[Segment]:
    """Crop marks of one page's cards (see the module docstring); segments inner end first, mm.

    Args:
        centers_mm: The cards' centres on the page, mm.
        shape: The card's outline as it stands on the sheet (:func:`card_on_sheet`).
        bleed_mm: Bleed beyond the cut, mm.
        inner_mm: The area inside the margins (x0, y0, x1, y1), mm.
        shared: Cards share cut lines (marks only beyond the block).
    """
    if not centers_mm:
        return []
    keep_off = bleed_union(centers_mm, shape, bleed_mm)
    shapely.prepare(keep_off)
    starts: list[tuple[float, float, float, float]] = []  # (x, y, ux, uy): where a cut line leaves its corner
    for cx, cy in centers_mm:
        corners = shape.corners() + np.array([cx, cy])
        if shape.kind == ShapeKind.HEXAGON:
            for x, y in corners:
                u = np.array([x - cx, y - cy]) / math.hypot(x - cx, y - cy)
                starts.append((float(x), float(y), float(u[0]), float(u[1])))
            continue
        for x, y in corners:
            sx, sy = math.copysign(1.0, x - cx), math.copysign(1.0, y - cy)
            starts.append((float(x), float(y), sx, 0.0))
            starts.append((float(x), float(y), 0.0, sy))
    out: list[Segment] = []
    seen: set[tuple[float, float, float, float]] = set()
    for x, y, ux, uy in starts:
        key = (round(x, 4), round(y, 4), round(ux, 4), round(uy, 4))
        if key in seen:
            continue
        seen.add(key)
        seg = _mark((x, y), (ux, uy), keep_off, inner_mm, bleed_mm, shared)
        if seg is not None:
            out.append(seg)
    return out


def _mark(
    corner: tuple[float, float],
    u: tuple[float, float],
    keep_off: shapely.Geometry,
    inner: Rect,
    bleed_mm: float,
    shared: bool,
) -> Segment | None:
    """The mark from a cut corner outward along ``u``: from the first point
    :data:`MARK_CLEAR_MM` clear of every bleed (at least bleed + offset out), up to
    :data:`MARK_LENGTH_MM` whole; None where a bleed or the margins leave less (never shorter)."""
    t = np.arange(0.0, bleed_mm * 2.5 + MARK_OFFSET_MM + MARK_LENGTH_MM + 10.0, 0.05)
    x, y = corner[0] + u[0] * t, corner[1] + u[1] * t
    clear = shapely.distance(keep_off, shapely.points(x, y)) >= MARK_CLEAR_MM - 1e-6
    inside = (x >= inner[0] - 1e-9) & (x <= inner[2] + 1e-9) & (y >= inner[1] - 1e-9) & (y <= inner[3] + 1e-9)
    first = np.flatnonzero(clear & (t >= bleed_mm + MARK_OFFSET_MM - 1e-9))
    if not first.size:
        return None
    k0 = int(first[0])
    if t[k0] > bleed_mm * 2.5 + MARK_OFFSET_MM:  # the corner is inside a neighbour's bleed or the block
        return None
    ok = clear & inside
    bad = np.flatnonzero(~ok[k0:])
    k1 = k0 + (int(bad[0]) - 1 if bad.size else len(t) - 1 - k0)
    whole = k0 + round(MARK_LENGTH_MM / 0.05)
    if k1 < whole:
        return None
    k1 = whole
    return ((float(x[k0]), float(y[k0])), (float(x[k1]), float(y[k1])))
