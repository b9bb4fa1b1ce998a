"""Open mouths: the concavities of a shape that its ink holds, as a ring holds its hole.

A closed hole (a ring's inside) is filled in every collision outline, so no symbol sits
inside another (they would read as one symbol). An open ring (a C, a horseshoe, a
crescent's bay) has no hole, yet a symbol in its mouth reads the same way. What the ink
might hold is its convex hull less the ink: the *pockets* (connected parts; a pocket's
*opening* is where it meets the hull's edge). The ink holds a place in three ways:

* *Surrounded*: rays from it in at least :data:`ENCLOSED_SHARE` of :data:`DIRECTIONS`
  evenly spread directions meet the ink, so it sees its pocket's opening under less than
  about a fifth of a turn (the deep part of a C, a U, a horseshoe; also the tip of a
  wedge narrower than that, such as a stride's crotch, when it has room). Tested on a
  grid of :data:`GRID` cells across the box's longer side and filled a cell at a time.
* *Round bay*: a pocket that the ink curls round as a band, as a crescent's or a wide
  C's. Take the circle through the two ends of the pocket's opening and its deepest point
  (farthest from the opening) and the segment the opening cuts from it: the pocket lies
  in that segment (at most :data:`BAY_SPILL` of its area outside: the ink never opens out
  beyond the arc, though it may bulge into the bay, as a moon's face does), covers at
  least :data:`BAY_COVER` of it, is at least :data:`BAY_DEPTH` times its opening's width
  deep (the arc spans more than 100 degrees) and at least :data:`BAY_SHARE` of the
  outline's area. Such a pocket is filled whole, up to its opening.
* *Embraced*: a pocket with one opening, at least :data:`EMBRACE_SHARE` of the outline's
  area (the ink is built round it: a C, a horseshoe, a magnet), at least
  :data:`EMBRACE_HELD` of it surrounded and at least :data:`EMBRACE_DEPTH` times its
  opening's width deep (a shepherd's crook's pocket runs long beside its staff: only its
  curl is held, so it is filled in its depth only). It too is filled whole: the part between the
  surrounded depth and the opening (between a thick C's tips, a horseshoe's feet) sees
  the opening too wide to be surrounded, yet a symbol there sits in the mouth. A notch in
  a solid body is small beside it and is filled in its depth only.

A mouth that cannot hold a disc of radius :data:`HOLD_RADIUS` clear of the ink (the slot
between two legs, a notch between rays or petals) holds nothing and is left open.

Angles alone cannot tell a bay from a corner: from every point of a crescent's bay the
opening spans more than a quarter turn (the arc's inscribed angle, 100 to 150 degrees),
no less than from an L's inside corner; what differs is the shape. Straight-sided
pockets (an L's corner, a wide V, between a star's points, beside an umbrella's shaft)
cover at most about two thirds of their segment; a corner rounded to a quarter arc, or a
shallow bite, is not deep enough; a round dent in a body (an animal's chest under its
chin) is small beside the body, not a bay that the ink is built round. :func:`fill_mouths`
adds the mouths to the outline, so the layout keeps other symbols out of them as it does
out of holes. Lengths are normalised box units (see :mod:`printdeck.artwork.tracing`).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from printdeck.artwork.faces import opencv

GRID = 48  # cells across the box's longer side
DIRECTIONS = 16  # rays cast from each cell
ENCLOSED_SHARE = 0.8  # a cell whose rays meet ink in at least this share of directions is in a mouth
MIN_MOUTH_SHARE = 0.02  # mouths smaller than this share of the outline's area are left alone
HOLD_RADIUS = 0.05  # box units: a mouth that cannot hold a disc this big is left open
BAY_SPILL = 0.05  # a round bay has at most this share of its area outside its circular segment
BAY_COVER = 0.85  # ... covers at least this share of the segment
BAY_DEPTH = 0.23  # ... is at least this share of its opening's width deep (an arc over 100 degrees)
BAY_SHARE = 0.2  # ... and at least this share of the outline's area (a band curled round it, not a dent)
EMBRACE_SHARE = 0.5  # a pocket at least this share of the outline's area ...
EMBRACE_HELD = 0.4  # ... that is at least this share surrounded is filled whole
EMBRACE_DEPTH = 1.0  # ... when it is at least as deep as its opening is wide (not a crook's long side)
NECK = 0.01  # box units: pockets joined by a neck narrower than twice this are measured apart
EDGE_TOLERANCE = 1e-6  # box units: a pocket's edge this near a hull edge runs along it


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


def roomy(mouth: np.ndarray, ink: np.ndarray, cell: float) -> np.ndarray:
    """``bool`` like ``mouth``: its connected regions (8-neighbour) that hold a disc of
    radius :data:`HOLD_RADIUS` clear of the ink (one cell's accuracy).

    Args:
        mouth: ``(H, W) bool`` mouth cells.
        ink: ``(H, W) bool`` ink cells.
        cell: A cell's side in box units.
    """
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    count, regions = cv2.connectedComponents(mouth.astype(np.uint8), connectivity=8)  # 0: not a mouth
    if count <= 1:
        return mouth
    exact = cv2.distanceTransform((~ink).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)  # Euclidean
    room = (exact.astype(np.float64) - 0.5) * cell  # cell centre to the ink's edge
    roomiest = np.full(count, -np.inf)
    np.maximum.at(roomiest, np.asarray(regions, dtype=np.intp).ravel(), room.ravel())
    holds = roomiest >= HOLD_RADIUS
    holds[0] = False
    return holds[regions]


def surrounded(outline: BaseGeometry, hull: BaseGeometry) -> list[BaseGeometry]:
    """The surrounded mouths (see the module docstring) that hold a disc of radius
    :data:`HOLD_RADIUS`: their grid cells, each a box; none when they are smaller than
    :data:`MIN_MOUTH_SHARE` of the outline's area."""
    x0, y0, x1, y1 = hull.bounds
    cell = max(x1 - x0, y1 - y0) / GRID
    nx, ny = max(1, math.ceil((x1 - x0) / cell)), max(1, math.ceil((y1 - y0) / cell))
    gx, gy = np.meshgrid(x0 + (np.arange(nx) + 0.5) * cell, y1 - (np.arange(ny) + 0.5) * cell)
    shapely.prepare(outline)
    shapely.prepare(hull)
    ink = shapely.intersects_xy(outline, gx, gy)
    candidates = shapely.contains_xy(hull, gx, gy) & ~ink
    mouth = roomy(enclosed_cells(ink, candidates), ink, cell)
    if mouth.sum() * cell * cell < MIN_MOUTH_SHARE * outline.area:
        return []
    r, c = np.nonzero(mouth)
    return list(shapely.box(x0 + c * cell, y1 - (r + 1) * cell, x0 + (c + 1) * cell, y1 - r * cell))


def pockets(outline: BaseGeometry, hull: BaseGeometry) -> list[Polygon]:
    """The hull's pockets outside the outline of at least :data:`MIN_MOUTH_SHARE` of its
    area, parted at necks narrower than ``2 * NECK`` (a sliver along the hull's edge may
    join two bays), each with its tips (rounded off in the parting) given back."""
    rest = hull.difference(outline)
    found = []
    for part in shapely.get_parts(rest.buffer(-NECK).buffer(NECK)):
        if isinstance(part, Polygon) and part.area >= MIN_MOUTH_SHARE * outline.area:
            whole = shapely.get_parts(rest.intersection(part.buffer(2 * NECK)))
            found.append(max((p for p in whole if isinstance(p, Polygon)), key=lambda p: p.area, default=part))
    return found


def opening_ends(pocket: Polygon, hull: BaseGeometry) -> tuple[np.ndarray, np.ndarray] | None:
    """The two ends ``(2,)`` of a pocket's opening, the stretch of one hull edge along its
    edge (the ink's tips); None when it opens on more than one edge (it lies between
    separate parts of the ink) or on none."""
    corners = shapely.get_coordinates(hull.exterior)
    edges = shapely.linestrings(np.stack([corners[:-1], corners[1:]], axis=1))
    along_edges = shapely.intersection(pocket.exterior, shapely.buffer(edges, EDGE_TOLERANCE))
    lengths = shapely.length(along_edges)
    if np.sum(lengths > NECK) != 1:
        return None
    best = int(np.argmax(lengths))
    start, end = corners[best], corners[best + 1]
    direction = (end - start) / np.hypot(*(end - start))
    on_edge = (shapely.get_coordinates(along_edges[best]) - start) @ direction
    return start + on_edge.min() * direction, start + on_edge.max() * direction


def bay_fit(pocket: Polygon, hull: BaseGeometry) -> tuple[float, float, float]:
    """How a pocket fits the segment cut by its opening from the circle through the
    opening's ends and the pocket's deepest point (farthest from the opening): the share
    of the pocket's area outside the segment, the share of the segment it covers, and its
    depth over its opening's width; ``(1, 0, 0)`` for a pocket without one opening."""
    ends = opening_ends(pocket, hull)
    if ends is None:
        return 1.0, 0.0, 0.0
    a, b = ends
    width = float(np.hypot(*(b - a)))
    along = (b - a) / width
    normal = np.array([-along[1], along[0]])
    xy = shapely.get_coordinates(shapely.segmentize(pocket.exterior, width / 64))
    depth = (xy - a) @ normal
    if -depth.min() > depth.max():  # the pocket lies on the other side of its opening
        depth, normal = -depth, -normal
    deepest = int(np.argmax(depth))
    circle = circle_through(a, b, xy[deepest])
    if circle is None:
        return 1.0, 0.0, 0.0
    centre, radius = circle
    reach = 4 * (radius + width)
    side = Polygon([a - reach * along, b + reach * along, b + reach * (along + normal), a + reach * (normal - along)])
    segment = Point(centre).buffer(radius, quad_segs=64).intersection(side)
    shared = pocket.intersection(segment).area
    return 1.0 - shared / pocket.area, shared / segment.area, float(depth[deepest]) / width


def circle_through(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Centre ``(2,)`` and radius of the circle through three points ``(2,)``; None when
    they are (nearly) on one line."""
    ab, ac = b - a, c - a
    cross = 2 * (ab[0] * ac[1] - ab[1] * ac[0])
    if abs(cross) < 1e-12 * max(1.0, float(ab @ ab), float(ac @ ac)):
        return None
    offset = np.array([ac[1] * (ab @ ab) - ab[1] * (ac @ ac), ab[0] * (ac @ ac) - ac[0] * (ab @ ab)]) / cross
    return a + offset, float(np.hypot(*offset))


def is_round_bay(pocket: Polygon, fit: tuple[float, float, float]) -> bool:
    """Whether a pocket is a round bay (see the module docstring) that holds a disc of
    radius :data:`HOLD_RADIUS`, given its :func:`bay_fit`; the caller has seen it is at
    least :data:`BAY_SHARE` of the outline's area."""
    spill, cover, depth = fit
    if spill > BAY_SPILL or cover < BAY_COVER or depth < BAY_DEPTH:
        return False
    return bool(shapely.maximum_inscribed_circle(pocket, HOLD_RADIUS / 8).length >= HOLD_RADIUS)


def is_embraced(pocket: Polygon, depth: float, held: BaseGeometry | None, outline_area: float) -> bool:
    """Whether a pocket is embraced (see the module docstring): it opens on one hull edge
    and is ``depth`` times its opening's width deep (:func:`bay_fit`'s; 0 without one
    opening), at least :data:`EMBRACE_DEPTH`; it is at least :data:`EMBRACE_SHARE` of
    ``outline_area``; at least :data:`EMBRACE_HELD` of it is in the surrounded mouths
    ``held`` (None: there are none)."""
    if held is None or pocket.area < EMBRACE_SHARE * outline_area or depth < EMBRACE_DEPTH:
        return False
    return bool(pocket.intersection(held).area >= EMBRACE_HELD * pocket.area)


def whole_pockets(outline: BaseGeometry, hull: BaseGeometry, cells: list[BaseGeometry]) -> list[Polygon]:
    """The pockets filled whole, up to their opening: the round bays and the embraced
    pockets (see the module docstring), given the surrounded mouths' ``cells``; each
    pocket's opening and fit are measured once, for both tests."""
    held = shapely.union_all(cells) if cells else None
    found = []
    for pocket in pockets(outline, hull):
        if pocket.area < BAY_SHARE * outline.area:
            continue
        fit = bay_fit(pocket, hull)
        if is_embraced(pocket, fit[2], held, outline.area) or is_round_bay(pocket, fit):
            found.append(pocket)
    return found


def fill_mouths(outline: BaseGeometry) -> BaseGeometry:
    """The outline with its open mouths (see the module docstring) added; the outline
    itself when it has none."""
    hull = shapely.convex_hull(outline)
    if hull.area - outline.area < MIN_MOUTH_SHARE * outline.area:
        return outline
    room = hull.area - outline.area  # no pocket is filled whole when all of them are smaller than a bay
    cells = surrounded(outline, hull)
    whole = whole_pockets(outline, hull, cells) if room >= BAY_SHARE * outline.area else []
    if not cells:
        return shapely.union_all([outline, *whole]) if whole else outline
    grown = shapely.union_all([outline, *cells, *whole])
    cell = max(hull.bounds[2] - hull.bounds[0], hull.bounds[3] - hull.bounds[1]) / GRID
    pad = cell / 2
    for _ in range(6):  # simplified (the cells' staircase), then grown back over the union
        smooth = grown.simplify(pad).buffer(pad, join_style="mitre", mitre_limit=2.0)
        if smooth.is_valid and smooth.contains(grown):
            return smooth
        pad *= 2
    return grown
