"""One card's packing state: the problem, the placed outlines and the exact validity tests.

Used by :mod:`printdeck.layout.pack`. Lengths are mm in card coordinates (origin at
the card centre, y up); angles are radians, counter-clockwise. A symbol's outline
vertices (normalised box units, see :mod:`printdeck.layout.silhouette`) are placed
by ``centre + rotate(h * v, theta)`` with ``h`` the box height.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from printdeck.layout.silhouette import Silhouette, sizing_area

SAFETY_MM = 1e-6         # numerical margin on every gap test
PROBES = 6               # outline vertices probed for a cheap first overlap test


@dataclass(frozen=True)
class PackInput:
    """One card's packing problem.

    Attributes:
        sils: The symbols' silhouettes, in card order.
        targets: ``(n,) float`` relative target sizes (largest about 1).
        rotatable: ``(n,) bool`` whether each symbol may turn.
        radius_mm: Safe-zone radius.
        gap_mm: Minimum distance between silhouettes.
        max_rotation_deg: ``None`` any angle, else ±this (0 = upright).
        attempts: Random positions tried per symbol at the start.
        rounds: Grow-and-wiggle rounds.
        compact_steps: Linear programs of the compaction (see :mod:`printdeck.layout.compact`).
        ratio_low: Smallest allowed size ratio (smallest over largest ink size).
        ratio_high: Largest allowed size ratio.
    """

    sils: tuple[Silhouette, ...]
    targets: np.ndarray
    rotatable: np.ndarray
    radius_mm: float
    gap_mm: float
    max_rotation_deg: float | None
    attempts: int
    rounds: int = 3
    compact_steps: int = 6
    ratio_low: float = 0.0
    ratio_high: float = 1.0


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
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


@dataclass(frozen=True)
class Rings:
    """How an outline's vertex array splits into rings and polygons (to rebuild it fast).

    Attributes:
        vertex_ring: ``(V,) int`` ring number of each vertex.
        ring_poly: ``(rings,) int`` polygon number of each ring (shell first, then holes).
        polys: Number of polygons (parts).
    """

    vertex_ring: np.ndarray
    ring_poly: np.ndarray
    polys: int

    @classmethod
    def of(cls, outline: BaseGeometry) -> Rings:
        counts: list[int] = []
        ring_poly: list[int] = []
        parts = shapely.get_parts(outline)
        for k, part in enumerate(parts):
            for ring in [part.exterior, *part.interiors]:
                counts.append(len(ring.coords))
                ring_poly.append(k)
        return cls(np.repeat(np.arange(len(counts)), counts), np.array(ring_poly), len(parts))

    def build(self, pts: np.ndarray, copies: int = 1) -> np.ndarray:
        """``(copies,)`` outlines from ``(copies * V, 2)`` stacked placed vertices."""
        n_rings = len(self.ring_poly)
        if n_rings == 1:  # fast path: one simple polygon
            return shapely.polygons(pts.reshape(copies, -1, 2))
        vr = (np.arange(copies)[:, None] * n_rings + self.vertex_ring[None, :]).ravel()
        rp = (np.arange(copies)[:, None] * self.polys + self.ring_poly[None, :]).ravel()
        polys = shapely.polygons(shapely.linearrings(pts, indices=vr), indices=rp)
        if self.polys == 1:
            return polys
        return shapely.multipolygons(polys, indices=np.repeat(np.arange(copies), self.polys))


def _hull(outline: BaseGeometry) -> np.ndarray:
    """The outline's convex hull vertices, complex ``x + iy`` box units."""
    xy = shapely.get_coordinates(shapely.convex_hull(outline))
    return xy[:, 0] + 1j * xy[:, 1]


class CardState:
    """Mutable packing state of one card: poses ``c`` ``(n, 2)`` mm, ``th`` ``(n,)`` rad,
    heights ``h`` ``(n,)`` mm (0 = not placed) and placed outlines ``polys`` ``(n,)``."""

    def __init__(self, prob: PackInput, rng: np.random.Generator) -> None:
        self.p = prob
        self.rng = rng
        n = len(prob.sils)
        self.n = n
        self.V = [s.vertices for s in prob.sils]
        self.Z = [v[:, 0] + 1j * v[:, 1] for v in self.V]  # the same vertices as complex x + iy
        self.fields = [s.field for s in prob.sils]  # distance bounds of each outline (see distfield)
        self.hull = [_hull(s.outline) for s in prob.sils]  # convex hull vertices, complex (containment)
        self.pole = np.array([s.inscribed[0] for s in prob.sils])  # inscribed disc centre, box units
        self.inr = np.array([s.inscribed[1] for s in prob.sils])  # ... and radius
        self.rings = [Rings.of(s.outline) for s in prob.sils]
        self.rad = np.array([s.radius for s in prob.sils])
        self.sqa = np.sqrt([sizing_area(s) for s in prob.sils])
        self.ink = np.sqrt([s.area for s in prob.sils])
        self.probes = [np.unique(np.linspace(0, len(v) - 1, PROBES).round().astype(int)) for v in self.V]
        self.c = np.zeros((n, 2))
        self.th = np.zeros(n)
        self.h = np.zeros(n)
        self.polys = np.empty(n, dtype=object)
        self.relocate_fails = 0  # moves of the smallest symbol that found no free pose (see pack._round)
        self.futile = np.zeros(n, dtype=bool)  # last wiggle failed and nothing has moved since
        self.R = prob.radius_mm
        self.gap = prob.gap_mm
        self._version = 0  # bumped whenever a placed outline changes (see placed_union)
        self._union: BaseGeometry | None = None
        self._union_key: tuple[int, int] = (-1, -1)

    # --- geometry helpers -------------------------------------------------
    def offsets(self, i: int, th: float, h: float) -> np.ndarray:
        """``(m, 2)`` outline vertices of symbol i relative to its centre, mm."""
        return (self.V[i] @ rotation(th).T) * h

    def geom(self, i: int, c: np.ndarray, w: np.ndarray) -> BaseGeometry:
        """Symbol i's outline from its placed vertex offsets ``w`` (see :meth:`offsets`) and centre ``c``."""
        return self.rings[i].build(w + c)[0]

    def contain_factor(self, c: np.ndarray, w: np.ndarray) -> float:
        """Largest ``f`` with every ``|c + f w_k| <= R`` (exact, per-vertex quadratic)."""
        ww = np.einsum("ij,ij->i", w, w)
        cw = w @ c
        cc = float(c @ c) - self.R * self.R
        disc = np.maximum(cw * cw - ww * cc, 0.0)
        f = (-cw + np.sqrt(disc)) / np.maximum(ww, 1e-12)
        return float(f.min())

    def neighbours(self, i: int, c: np.ndarray, r: float, reach: float) -> np.ndarray:
        """Indices j != i whose bounding circles come within ``reach`` of symbol i's."""
        d = np.hypot(*(self.c - c).T) - r - self.rad * self.h
        d[i] = np.inf
        return np.nonzero(d < reach)[0]

    def valid(self, i: int, c: np.ndarray, th: float, h: float) -> BaseGeometry | None:
        """The placed outline if symbol i fits there (gap kept, inside), else None."""
        idx, geoms = self.valid_poses(i, c[None, :], np.array([th]), h)
        return geoms[0] if len(idx) else None

    def placed(self, i: int, cs: np.ndarray, ths: np.ndarray, hs: np.ndarray | float) -> np.ndarray:
        """Outline vertices of symbol i at the poses ``cs`` ``(m, 2)``, ``ths`` ``(m,)`` and
        heights ``hs`` (``(m,)`` or one for all): ``(m, V) complex``, ``x + iy`` mm."""
        turn = np.exp(1j * ths) * hs
        return turn[:, None] * self.Z[i][None, :] + (cs[:, 0] + 1j * cs[:, 1])[:, None]

    def inside(self, i: int, cs: np.ndarray, ths: np.ndarray, h: float) -> np.ndarray:
        """``(m,) bool``: which poses ``cs`` ``(m, 2)``, ``ths`` ``(m,)`` of symbol i at height h
        keep the outline inside the safe disc (exact: the farthest point of a shape from
        any centre is a vertex of its convex hull)."""
        z = (np.exp(1j * ths) * h)[:, None] * self.hull[i][None, :] + (cs[:, 0] + 1j * cs[:, 1])[:, None]
        return self.inside_all(z)

    def probes_off(self, i: int, z: np.ndarray, union: BaseGeometry) -> np.ndarray:
        """``(m,) bool``: which rows of symbol i's placed vertices ``z`` ``(m, V) complex``
        have none of a few probe vertices on ``union`` (a cheap first cut: a pose with one
        is surely invalid)."""
        zp = z[:, self.probes[i]]
        return ~shapely.contains_xy(union, zp.real, zp.imag).any(axis=1)

    def inside_all(self, z: np.ndarray) -> np.ndarray:
        """``(m,) bool``: which rows of placed vertices ``z`` ``(m, V) complex`` lie in the safe disc."""
        return (z.real * z.real + z.imag * z.imag).max(axis=1) <= self.R * self.R

    def outlines(self, i: int, z: np.ndarray) -> np.ndarray:
        """``(m,)`` outlines of symbol i from placed vertices ``z`` ``(m, V) complex``."""
        pts = np.ascontiguousarray(z).view(np.float64).reshape(-1, 2)
        return self.rings[i].build(pts, len(z))

    def clear_of(self, union: BaseGeometry, geoms: np.ndarray) -> np.ndarray:
        """``(k,) bool``: which of the outlines ``geoms`` keep the gap to ``union`` (exact)."""
        free = ~shapely.intersects(union, geoms)  # cheap first cut; a prepared union goes first
        idx = np.nonzero(free)[0]
        if len(idx):
            free[idx] = ~shapely.dwithin(union, geoms[idx], self.gap + SAFETY_MM)
        return free

    def near(self, i: int, cs: np.ndarray, h: float) -> BaseGeometry | None:
        """The placed outlines symbol i could come within the gap of, at any of the centres
        ``cs`` ``(m, 2)`` and heights up to ``h``, as one prepared multipolygon (None if none)."""
        mid = cs.mean(axis=0)
        spread = float(np.hypot(*(cs - mid).T).max())
        nb = self.neighbours(i, mid, self.rad[i] * h + spread, self.gap)
        nb = nb[self.h[nb] > 0]
        if not len(nb):
            return None
        others = shapely.multipolygons(shapely.get_parts(self.polys[nb]))
        shapely.prepare(others)
        return others

    def valid_poses(self, i: int, cs: np.ndarray, ths: np.ndarray, hs: np.ndarray | float,
                    near: BaseGeometry | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Which of the poses ``cs`` ``(m, 2)``, ``ths`` ``(m,)`` at heights ``hs`` (``(m,)`` or
        one for all) symbol i fits (gap kept, every vertex inside the safe disc), all
        checked at once.

        Args:
            near: :meth:`near` for these poses or any that reach farther, when the caller
                checks several batches of poses around one spot; found here if None.

        Returns:
            ``(indices (k,), outlines (k,))`` of the valid poses, in the given order.
        """
        z = self.placed(i, cs, ths, hs)
        idx = np.nonzero(self.inside_all(z))[0]
        if not len(idx):
            return idx, np.empty(0, dtype=object)
        geoms = self.outlines(i, z[idx])
        if near is None:
            near = self.near(i, cs[idx], float(np.max(hs)))
        if near is None:
            return idx, geoms
        free = self.clear_of(near, geoms)
        return idx[free], geoms[free]

    def placed_union(self, without: int = -1) -> BaseGeometry | None:
        """The placed symbols' outlines (``h > 0``), except symbol ``without``, as one
        prepared multipolygon, or None if there are none.

        The outlines never overlap, so no union is computed; the result is kept until a
        placed outline changes (:meth:`set`, :meth:`clear`)."""
        key = (self._version, without)
        if key != self._union_key:
            placed = self.h > 0
            if 0 <= without < self.n:
                placed[without] = False
            union = None
            if placed.any():
                union = shapely.multipolygons(shapely.get_parts(self.polys[placed]))
                shapely.prepare(union)
            self._union, self._union_key = union, key
        return self._union

    def clear(self) -> None:
        """Take every symbol off the card (heights 0) and forget what the rounds learnt of it."""
        self.h[:] = 0.0
        self.futile[:] = False
        self.relocate_fails = 0
        self._version += 1

    def set(self, i: int, c: np.ndarray, th: float, h: float, g: BaseGeometry) -> None:
        """Put symbol i at centre ``c`` (mm), angle ``th`` (rad), height ``h`` (mm), outline ``g``."""
        self.c[i], self.th[i], self.h[i], self.polys[i] = c, th, h, g
        self._version += 1

    def angles(self, i: int, m: int) -> np.ndarray:
        """``(m,)`` random starting angles (rad) allowed for symbol i."""
        lim = self.p.max_rotation_deg
        if not self.p.rotatable[i] or lim == 0:
            return np.zeros(m)
        if lim is None:
            return self.rng.uniform(0, 2 * math.pi, m)
        return np.radians(self.rng.uniform(-lim, lim, m))

    def clamp_angles(self, i: int, ths: np.ndarray) -> np.ndarray:
        """``(m,)`` angles (rad) brought within what symbol i may turn."""
        m = self.p.max_rotation_deg
        if not self.p.rotatable[i] or m == 0:
            return np.zeros_like(ths)
        if m is None:
            return ths
        lim = math.radians(m)
        return np.clip(ths, -lim, lim)
