"""One card's packing state: the problem, the placed outlines and the exact validity tests.

Used by every stage of :mod:`printdeck.layout.packing`. Lengths are mm in card
coordinates (origin at the card centre, y up); angles are radians, counter-clockwise.
A symbol's outline vertices (normalised box units, see :mod:`printdeck.artwork.tracing`)
are placed by ``centre + rotate(h * v, angle)`` with ``h`` the box height.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from printdeck.artwork import Silhouette
from printdeck.layout.compact_budget import COMPACT_MIN_GAIN, COMPACT_STEPS
from printdeck.layout.packing.safe_zone import SafeZone
from printdeck.layout.packing.symbol_geometry import symbol_geometry

SAFETY_MM = 1e-6  # numerical margin on every gap test
CENTRE = shapely.Point(0.0, 0.0)  # the card's centre (see PackInput.centre_free_mm)
POLYGON = int(shapely.GeometryType.POLYGON)  # shapely.get_type_id of a polygon


@dataclass(frozen=True)
class PackInput:
    """One card's packing problem.

    Attributes:
        silhouettes: The symbols' silhouettes, in card order.
        targets: ``(n,) float`` relative target sizes (largest about 1).
        rotatable: ``(n,) bool`` whether each symbol may turn.
        radius_mm: Safe-zone radius (a disc's; ignored when ``zone`` is given).
        gap_mm: Minimum distance between silhouettes.
        max_rotation_deg: ``None`` any angle, else ±this (0 = upright).
        attempts: Random positions tried per symbol at the start.
        rounds: Grow-and-wiggle rounds (see :mod:`.growth`; none by default: the
            compaction's first steps grow the symbols for less, see bench/RESULTS.md).
        compact_steps: Most linear programs of the compaction (see :mod:`.compaction`).
        compact_min_gain: The compaction stops once a step gains less ink than this share
            of the safe zone's area (so a card still gaining takes more steps than one
            that has jammed).
        ratio_low: Smallest allowed size ratio (smallest over largest ink size).
        ratio_high: Largest allowed size ratio.
        zone: The safe zone (a convex polygon for square, rectangular and hexagonal
            cards); ``None``: the disc of ``radius_mm``.
        centre_free_mm: Keep the disc of this radius about the card's centre free (and
            ``gap_mm`` beyond it): a compass cutter's centre mark; 0: none.
        rim_cut: ``None``, or ``(direction_deg, chord_mm)``: the safe zone also stays on the
            centre's side of the chord ``chord_mm`` from the centre across ``direction_deg``,
            keeping the cap beyond it free (a class set's deck mark; :meth:`SafeZone.with_cut`).
        pinned: ``()`` (none), or per symbol ``None`` or its fixed pose ``(x_mm, y_mm,
            angle_rad, height_mm)``: a pinned symbol is put there first and never moves,
            turns or grows; the others are packed around it (see :mod:`.pinned`).
    """

    silhouettes: tuple[Silhouette, ...]
    targets: np.ndarray
    rotatable: np.ndarray
    radius_mm: float
    gap_mm: float
    max_rotation_deg: float | None
    attempts: int
    rounds: int = 0
    compact_steps: int = COMPACT_STEPS
    compact_min_gain: float = COMPACT_MIN_GAIN
    ratio_low: float = 0.0
    ratio_high: float = 1.0
    zone: SafeZone | None = None
    centre_free_mm: float = 0.0
    rim_cut: tuple[float, float] | None = None
    pinned: tuple[tuple[float, float, float, float] | None, ...] = ()

    def safe_zone(self) -> SafeZone:
        """The zone the ink must stay in: ``zone``, else the disc of ``radius_mm``; less the
        cap beyond ``rim_cut``, if any."""
        zone = self.zone if self.zone is not None else SafeZone.disc(self.radius_mm)
        return zone if self.rim_cut is None else zone.with_cut(*self.rim_cut)


@dataclass(frozen=True)
class PackResult:
    """A packed card. Arrays are ``(n,)`` or ``(n, 2)``, in card order.

    Attributes:
        centers_mm: Box centres.
        angles_deg: Rotations, counter-clockwise.
        heights_mm: Box heights (width = aspect * height).
        outlines: Placed collision outlines (mm).
    """

    centers_mm: np.ndarray
    angles_deg: np.ndarray
    heights_mm: np.ndarray
    outlines: tuple[BaseGeometry, ...]


class PackFailure(Exception):
    """Raised when the symbols cannot even be placed small; carries the reason."""


def rotation(theta: float) -> np.ndarray:
    """``(2, 2)`` matrix turning points by ``theta`` radians counter-clockwise."""
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


def _placed(points: np.ndarray, centres: np.ndarray, turn: np.ndarray) -> np.ndarray:
    """``(m, P) complex``: the box points ``points`` ``(P,) complex`` (box units) placed at
    each of ``centres`` ``(m,) complex`` (mm), turned and scaled by ``turn`` ``(m,) complex``
    (``height e^{i angle}``, mm)."""
    return turn[:, None] * points[None, :] + centres[:, None]


def _joined(outlines: np.ndarray) -> BaseGeometry:
    """The placed ``outlines`` ``(k,)`` (polygons or multipolygons) as one prepared
    multipolygon of all their parts (polygons go in as they are: no copy of their parts
    first)."""
    polygons = (shapely.get_type_id(outlines) == POLYGON).all()
    joined = shapely.multipolygons(outlines if polygons else shapely.get_parts(outlines))
    shapely.prepare(joined)
    return joined


class CardState:
    """Mutable packing state of one card: the problem's per-symbol geometry and the poses so far.

    Per symbol ``i`` of the ``n_symbols`` (card order); "box units" are the silhouette's
    normalised box (height 1), so a length in box units times the height is mm.

    Attributes:
        problem: The :class:`PackInput`.
        rng: Random source of every stage.
        n_symbols: ``n``, the number of symbols.
        vertices_box: ``n`` arrays ``(V_i, 2) float``: outline vertices, box units.
        vertices_z: ``n`` arrays ``(V_i,) complex``: the same vertices as ``x + iy``.
        shape_fields: ``n`` :class:`~printdeck.artwork.ShapeField`: distance bounds of each outline.
        hull_z: ``n`` arrays ``(H_i,) complex``: convex hull vertices, box units (containment).
        pole_z: ``(n,) complex``: centre of the largest inscribed disc found, box units.
        pole_radius_box: ``(n,) float``: that disc's radius, box units.
        rings: ``n`` :class:`~.symbol_geometry.Rings`: how each vertex array splits into rings and polygons.
        radius_box: ``(n,) float``: farthest outline vertex from the box centre, box units.
        sizing_side_box: ``(n,) float``: square root of the sizing area (see
            :func:`~printdeck.artwork.sizing_area`), box units; heights are planned by it.
        ink_side_box: ``(n,) float``: square root of the ink area, box units; a symbol's
            *ink size* is ``heights_mm * ink_side_box`` (mm).
        probe_vertices: ``n`` arrays ``(<= symbol_geometry.PROBES,) int``: vertices probed first for overlaps.
        geometry: ``n`` :class:`~.symbol_geometry.SymbolGeometry` (made once per
            silhouette; the arrays above are theirs, read-only).
        centers_mm: ``(n, 2) float``: box centres, mm.
        angles_rad: ``(n,) float``: rotations, radians counter-clockwise.
        heights_mm: ``(n,) float``: box heights, mm (0 = not placed).
        outlines_mm: ``(n,) object``: placed collision outlines (shapely), mm.
        relocate_fails: Moves of the smallest symbol that found no free pose (see
            :mod:`.growth`).
        wiggle_futile: ``(n,) bool``: last wiggle failed and nothing has moved since.
        fixed: ``(n,) bool``: the pinned symbols (:attr:`PackInput.pinned`), never moved.
        free: ``(n,) bool``: the others, the ones the stages pack.
        zone: The safe zone (:class:`~.safe_zone.SafeZone`).
        radius_mm: The safe zone's circumradius (a disc's radius), mm.
        gap_mm: Smallest distance between two outlines, mm.
    """

    def __init__(self, problem: PackInput, rng: np.random.Generator) -> None:
        sils = problem.silhouettes
        n = len(sils)
        self.problem = problem
        self.rng = rng
        self.n_symbols = n
        geometry = [symbol_geometry(s) for s in sils]  # made once per silhouette, shared by the deck's cards
        self.vertices_box = [s.vertices for s in sils]
        self.vertices_z = [g.vertices_z for g in geometry]
        self.shape_fields = [s.field for s in sils]
        self.hull_z = [g.hull_z for g in geometry]
        self.pole_z = np.array([s.inscribed[0] for s in sils])
        self.pole_radius_box = np.array([s.inscribed[1] for s in sils])
        self.rings = [g.rings for g in geometry]
        self.radius_box = np.array([s.radius for s in sils])
        self.sizing_side_box = np.array([g.sizing_side for g in geometry])
        self.ink_side_box = np.array([g.ink_side for g in geometry])
        self.probe_vertices = [g.probe_vertices for g in geometry]
        self.geometry = geometry
        self.centers_mm = np.zeros((n, 2))
        self.angles_rad = np.zeros(n)
        self.heights_mm = np.zeros(n)
        self.outlines_mm = np.empty(n, dtype=object)
        self.relocate_fails = 0
        self.wiggle_futile = np.zeros(n, dtype=bool)
        self.zone = problem.safe_zone()
        self.centre_free_mm = problem.centre_free_mm
        self.radius_mm = self.zone.radius_mm
        self.gap_mm = problem.gap_mm
        self.fixed = np.array([p is not None for p in problem.pinned] if problem.pinned else [False] * n, dtype=bool)
        self.free = ~self.fixed
        self._version = 0  # bumped whenever a placed outline changes (see placed_union)
        self._union: BaseGeometry | None = None
        self._union_key: tuple[int, int] = (-1, -1)

    def ink_sizes_mm(self) -> np.ndarray:
        """``(n,)`` each symbol's ink size, ``heights_mm * ink_side_box`` (mm; 0 if not placed)."""
        return self.heights_mm * self.ink_side_box

    # --- geometry helpers -------------------------------------------------
    def offsets(self, i: int, angle: float, h: float) -> np.ndarray:
        """``(m, 2)`` outline vertices of symbol i relative to its centre, mm."""
        return (self.vertices_box[i] @ rotation(angle).T) * h

    def outline_at(self, i: int, c: np.ndarray, w: np.ndarray) -> BaseGeometry:
        """Symbol i's outline from its placed vertex offsets ``w`` (see :meth:`offsets`) and centre ``c``."""
        return self.rings[i].build(w + c)[0]

    def contain_factor(self, c: np.ndarray, w: np.ndarray) -> float:
        """Largest ``f`` with every point ``c + f w_k`` in the safe zone (exact; see
        :meth:`~.safe_zone.SafeZone.contain_factor`)."""
        return self.zone.contain_factor(c, w)

    def neighbours(self, i: int, c: np.ndarray, r: float, reach: float) -> np.ndarray:
        """Indices j != i whose bounding circles come within ``reach`` of symbol i's."""
        d = np.hypot(*(self.centers_mm - c).T) - r - self.radius_box * self.heights_mm
        d[i] = np.inf
        return (d < reach).nonzero()[0]

    def valid(self, i: int, c: np.ndarray, angle: float, h: float) -> BaseGeometry | None:
        """The placed outline if symbol i fits there (gap kept, inside), else None."""
        idx, geoms = self.valid_poses(i, c[None, :], np.array([angle]), h)
        return geoms[0] if len(idx) else None

    def placed_vertices(self, i: int, cs: np.ndarray, angles: np.ndarray, hs: np.ndarray | float) -> np.ndarray:
        """Outline vertices of symbol i at the poses ``cs`` ``(m, 2)``, ``angles`` ``(m,)`` and
        heights ``hs`` (``(m,)`` or one for all): ``(m, V) complex``, ``x + iy`` mm."""
        return _placed(self.vertices_z[i], cs[:, 0] + 1j * cs[:, 1], np.exp(1j * angles) * hs)

    def placed_turned(self, i: int, centres: np.ndarray, turn: np.ndarray) -> np.ndarray:
        """:meth:`placed_vertices` at the centres ``centres`` ``(m,) complex`` (mm), each
        turned and scaled by ``turn`` ``(m,) complex`` (``height e^{i angle}``, mm)."""
        return _placed(self.vertices_z[i], centres, turn)

    def inside(self, i: int, cs: np.ndarray, angles: np.ndarray, h: np.ndarray | float) -> np.ndarray:
        """``(m,) bool``: which poses ``cs`` ``(m, 2)``, ``angles`` ``(m,)`` of symbol i at height h
        keep the outline inside the safe disc (exact: the farthest point of a shape from
        any centre is a vertex of its convex hull)."""
        return self.inside_all(_placed(self.hull_z[i], cs[:, 0] + 1j * cs[:, 1], np.exp(1j * angles) * h))

    def inside_turned(self, i: int, centres: np.ndarray, turn: np.ndarray) -> np.ndarray:
        """:meth:`inside` of symbol i at the centres ``centres`` ``(m,) complex`` (mm), each
        turned and scaled by ``turn`` ``(m,) complex`` (``height e^{i angle}``, mm)."""
        return self.inside_all(_placed(self.hull_z[i], centres, turn))

    def probes_off(self, i: int, z: np.ndarray, union: BaseGeometry) -> np.ndarray:
        """``(m,) bool``: which rows of symbol i's placed vertices ``z`` ``(m, V) complex``
        have none of a few probe vertices on ``union`` (a cheap first cut: a pose with one
        is surely invalid)."""
        zp = z[:, self.probe_vertices[i]]
        return ~shapely.contains_xy(union, zp.real, zp.imag).any(axis=1)

    def inside_all(self, z: np.ndarray) -> np.ndarray:
        """``(m,) bool``: which rows of placed vertices ``z`` ``(m, V) complex`` lie in the safe zone."""
        return self.zone.inside_all(z)

    def outlines_from(self, i: int, z: np.ndarray) -> np.ndarray:
        """``(m,)`` outlines of symbol i from placed vertices ``z`` ``(m, V) complex``."""
        pts = np.ascontiguousarray(z).view(np.float64).reshape(-1, 2)
        return self.rings[i].build(pts, len(z))

    def clear_of(self, union: BaseGeometry | None, geoms: np.ndarray) -> np.ndarray:
        """``(k,) bool``: which of the outlines ``geoms`` keep the gap to ``union`` (None: no
        other outline) and to the free centre (:attr:`PackInput.centre_free_mm`), exactly."""
        free = np.ones(len(geoms), dtype=bool)
        if union is not None:  # no intersects() first: a prepared union's dwithin is as quick alone
            free = ~shapely.dwithin(union, geoms, self.gap_mm + SAFETY_MM)
        if self.centre_free_mm > 0:
            idx = np.nonzero(free)[0]
            free[idx] = ~shapely.dwithin(CENTRE, geoms[idx], self.centre_free_mm + self.gap_mm + SAFETY_MM)
        return free

    def centre_room(self, outline: BaseGeometry) -> float:
        """How much nearer the free centre ``outline`` may come (mm; inf without one)."""
        if self.centre_free_mm <= 0:
            return math.inf
        return float(shapely.distance(CENTRE, outline)) - self.centre_free_mm - self.gap_mm - SAFETY_MM

    def near(self, i: int, cs: np.ndarray, h: float) -> BaseGeometry | None:
        """The placed outlines symbol i could come within the gap of, at any of the centres
        ``cs`` ``(m, 2)`` and heights up to ``h``, as one prepared multipolygon (None if none)."""
        mid = cs.mean(axis=0)
        spread = float(np.hypot(*(cs - mid).T).max())
        nb = self.neighbours(i, mid, self.radius_box[i] * h + spread, self.gap_mm)
        nb = nb[self.heights_mm[nb] > 0]
        if not len(nb):
            return None
        return _joined(self.outlines_mm[nb])

    def valid_poses(
        self, i: int, cs: np.ndarray, angles: np.ndarray, hs: np.ndarray | float, near: BaseGeometry | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Which of the poses ``cs`` ``(m, 2)``, ``angles`` ``(m,)`` at heights ``hs`` (``(m,)`` or
        one for all) symbol i fits (gap kept, every vertex inside the safe disc), all
        checked at once.

        Args:
            near: :meth:`near` for these poses or any that reach farther, when the caller
                checks several batches of poses around one spot; found here if None.

        Returns:
            ``(indices (k,), outlines (k,))`` of the valid poses, in the given order.
        """
        z = self.placed_vertices(i, cs, angles, hs)
        idx = self.inside(i, cs, angles, hs).nonzero()[0]  # the hull's vertices decide (exact)
        if not len(idx):
            return idx, np.empty(0, dtype=object)
        geoms = self.outlines_from(i, z[idx])
        if near is None:
            near = self.near(i, cs[idx], float(np.max(hs)))
        free = self.clear_of(near, geoms)
        return idx[free], geoms[free]

    def placed_union(self, without: int = -1) -> BaseGeometry | None:
        """The placed symbols' outlines (``heights_mm > 0``), except symbol ``without``, as
        one prepared multipolygon, or None if there are none.

        The outlines never overlap, so no union is computed; the result is kept until a
        placed outline changes (:meth:`put`, :meth:`clear`)."""
        key = (self._version, without)
        if key != self._union_key:
            placed = self.heights_mm > 0
            if 0 <= without < self.n_symbols:
                placed[without] = False
            union = None
            if placed.any():
                union = _joined(self.outlines_mm[placed])
            self._union, self._union_key = union, key
        return self._union

    def clear(self) -> None:
        """Take every symbol off the card (heights 0) and forget what the rounds learnt of it."""
        self.heights_mm[:] = 0.0
        self.wiggle_futile[:] = False
        self.relocate_fails = 0
        self._version += 1

    def put(self, i: int, c: np.ndarray, angle: float, h: float, outline: BaseGeometry) -> None:
        """Put symbol i at centre ``c`` (mm), ``angle`` (rad), height ``h`` (mm), with its placed ``outline``."""
        self.centers_mm[i], self.angles_rad[i], self.heights_mm[i], self.outlines_mm[i] = c, angle, h, outline
        self._version += 1

    def put_all(self, centres: np.ndarray, angles: np.ndarray, heights: np.ndarray, outlines: np.ndarray) -> None:
        """Put every symbol at once (:meth:`put` of each): ``centres`` ``(n, 2)`` mm, ``angles``
        ``(n,)`` rad, ``heights`` ``(n,)`` mm, ``outlines`` ``(n,)`` placed outlines."""
        self.centers_mm[:], self.angles_rad[:], self.heights_mm[:] = centres, angles, heights
        self.outlines_mm[:] = outlines
        self._version += 1

    def random_angles(self, i: int, m: int) -> np.ndarray:
        """``(m,)`` random starting angles (rad) allowed for symbol i."""
        lim = self.problem.max_rotation_deg
        if not self.problem.rotatable[i] or lim == 0:
            return np.zeros(m)
        if lim is None:
            return self.rng.uniform(0, 2 * math.pi, m)
        return np.radians(self.rng.uniform(-lim, lim, m))

    def clamp_angles(self, i: int, angles: np.ndarray) -> np.ndarray:
        """``(m,)`` angles (rad) brought within what symbol i may turn."""
        m = self.problem.max_rotation_deg
        if not self.problem.rotatable[i] or m == 0:
            return np.zeros_like(angles)
        if m is None:
            return angles
        lim = math.radians(m)
        return np.clip(angles, -lim, lim)
