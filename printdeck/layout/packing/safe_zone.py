"""The safe zone a card's ink must stay in: a disc or a convex polygon, tested exactly.

A disc (round cards) keeps the engine's original tests: a vertex is inside when
``|z| <= R``; near the rim, the linear programs keep each vertex behind the chord across
its own direction at the apothem of the inscribed regular :data:`RIM_POLYGON`-gon. A convex polygon (square, rectangle,
hexagon; a rounded corner as chords inside its arc, see
:meth:`printdeck.cardshape.CardShape.vertices`) is its sides' half-planes
``Re(conj(u_k) z) <= a_k`` (``u_k`` the outward unit normal, ``a_k`` the apothem): the
containment tests and the linear programs' rim rows use exactly these sides.

Everything is mm in card coordinates (origin at the card's centre, y up); points are
complex ``x + iy``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from printdeck.cardshape import CardShape

RIM_POLYGON = 64  # a disc's rim contact is a chord at the apothem of this regular polygon inscribed in it


@dataclass(frozen=True, eq=False)
class SafeZone:
    """A disc (``normals`` is None) or a convex polygon's half-planes.

    Attributes:
        radius_mm: The disc's radius; a polygon's circumradius (farthest vertex), mm.
        normals: ``(k,) complex`` outward unit normals of a polygon's sides, or None.
        apothems: ``(k,)`` distance of each side from the centre, mm (empty for a disc).
        area_mm2: The zone's area, mm².
        half_extent_mm: ``(x, y)`` half the zone's bounding box, mm.
        inradius_mm: Radius of the largest disc about the centre inside the zone, mm.
        cut_normals: A disc's extra half-planes ``Re(conj(u) z) <= cut_apothems``
            (:meth:`with_cut`; a polygon takes them among its sides), ``(j,) complex``.
        cut_apothems: Their distances from the centre, mm.
    """

    radius_mm: float
    normals: np.ndarray | None
    apothems: np.ndarray
    area_mm2: float
    half_extent_mm: tuple[float, float]
    inradius_mm: float
    cut_normals: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=complex))
    cut_apothems: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def with_cut(self, direction_deg: float, distance_mm: float) -> SafeZone:
        """The zone on the centre's side of the chord ``distance_mm`` from the centre across
        ``direction_deg`` (counter-clockwise from +x): the cap beyond it is kept free (a class
        set's deck mark sits there). The zone stays convex, so every test stays exact; its
        ``area_mm2`` stays the uncut zone's (the planned density does not change)."""
        u = complex(math.cos(math.radians(direction_deg)), math.sin(math.radians(direction_deg)))
        inradius = min(self.inradius_mm, distance_mm)
        if self.normals is None:
            return replace(
                self,
                cut_normals=np.append(self.cut_normals, u),
                cut_apothems=np.append(self.cut_apothems, distance_mm),
                inradius_mm=inradius,
            )
        return replace(
            self,
            normals=np.append(self.normals, u),
            apothems=np.append(self.apothems, distance_mm),
            inradius_mm=inradius,
        )

    def reach_mm(self, direction_deg: float, radius_mm: float) -> float:
        """How far from the centre along ``direction_deg`` a disc of ``radius_mm`` may sit
        wholly inside the zone (exact for a disc and for a convex polygon), mm."""
        u = complex(math.cos(math.radians(direction_deg)), math.sin(math.radians(direction_deg)))
        if self.normals is None:
            return self.radius_mm - radius_mm
        along = (np.conj(self.normals) * u).real
        ahead = along > 1e-12
        return float(((self.apothems[ahead] - radius_mm) / along[ahead]).min())

    def _cut_depth(self, z: np.ndarray) -> np.ndarray:
        """A disc's depth inside its cuts (``inf`` without any), like :meth:`depth`."""
        if not len(self.cut_normals):
            return np.full(np.shape(z), np.inf)
        return (self.cut_apothems - (np.conj(self.cut_normals) * z[..., None]).real).min(axis=-1)

    @classmethod
    def disc(cls, radius_mm: float) -> SafeZone:
        """The safe disc of ``radius_mm``."""
        r = radius_mm
        return cls(r, None, np.zeros(0), math.pi * r**2, (r, r), r)

    @classmethod
    def of(cls, shape: CardShape) -> SafeZone:
        """The zone of a safe shape (the card's shape inset by its safe margin)."""
        if shape.is_circle:
            return cls.disc(shape.width_mm / 2.0)
        v = shape.vertices()
        z = v[:, 0] + 1j * v[:, 1]
        edge = np.roll(z, -1) - z
        normals = -1j * edge / np.abs(edge)  # counter-clockwise polygon: outward is a quarter turn clockwise
        apothems = (np.conj(normals) * z).real
        x, y = v[:, 0], v[:, 1]
        area = 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
        half = (float(np.abs(x).max()), float(np.abs(y).max()))
        return cls(float(np.abs(z).max()), normals, apothems, area, half, float(apothems.min()))

    @property
    def is_disc(self) -> bool:
        """Whether the zone is a disc."""
        return self.normals is None

    def depth(self, z: np.ndarray) -> np.ndarray:
        """How far inside the zone each point ``z`` (complex, any shape) is, mm (negative: outside)."""
        if self.normals is None:
            depth = self.radius_mm - np.abs(z)
            return np.minimum(depth, self._cut_depth(z)) if len(self.cut_normals) else depth
        x, y = np.real(z), np.imag(z)
        out = np.full(np.shape(z), np.inf)
        for ux, uy, a in zip(self.normals.real, self.normals.imag, self.apothems):  # one side at a time
            out = np.minimum(out, a - (x * ux + y * uy))
        return out

    def outwardness(self, z: np.ndarray) -> np.ndarray:
        """A score growing towards the rim: ``|z|`` on a disc, minus :meth:`depth` on a polygon."""
        if self.normals is None:
            return np.abs(z)
        return -self.depth(z)

    def key(self) -> tuple:
        """What tells this zone from another (equal keys: the same zone): its radius, sides
        and cuts, as bytes (the zone is compared by identity otherwise)."""
        normals = None if self.normals is None else self.normals.tobytes()
        return (
            self.radius_mm,
            normals,
            self.apothems.tobytes(),
            self.cut_normals.tobytes(),
            self.cut_apothems.tobytes(),
        )

    def inside(self, z: np.ndarray) -> np.ndarray:
        """``bool`` like ``z``: which points lie in the zone (exact)."""
        if self.normals is None:
            inside = z.real * z.real + z.imag * z.imag <= self.radius_mm * self.radius_mm
            return inside & (self._cut_depth(z) >= 0) if len(self.cut_normals) else inside
        return self.depth(z) >= 0.0

    def inside_all(self, z: np.ndarray) -> np.ndarray:
        """``(m,) bool``: which rows of ``z`` ``(m, V) complex`` lie wholly in the zone."""
        if self.normals is None:
            ok = (z.real * z.real + z.imag * z.imag).max(axis=1) <= self.radius_mm * self.radius_mm
            for u, a in zip(np.conj(self.cut_normals), self.cut_apothems):
                ok &= (u * z).real.max(axis=1) <= a
            return ok
        x, y = z.real, z.imag
        ok = np.ones(z.shape[0], dtype=bool)
        for ux, uy, a in zip(self.normals.real, self.normals.imag, self.apothems):  # one side at a time
            ok &= (x * ux + y * uy).max(axis=1) <= a
        return ok

    def contain_factor(self, c: np.ndarray, w: np.ndarray) -> float:
        """Largest ``f`` with every point ``c + f w_k`` in the zone (``c`` ``(2,)``, ``w`` ``(m, 2)``, mm).

        Exact: a per-vertex quadratic on a disc, a per-vertex and per-side linear bound
        on a polygon."""
        if self.normals is None:
            ww = np.einsum("ij,ij->i", w, w)
            cw = w @ c
            cc = float(c @ c) - self.radius_mm * self.radius_mm
            disc = np.maximum(cw * cw - ww * cc, 0.0)
            f = float(((-cw + np.sqrt(disc)) / np.maximum(ww, 1e-12)).min())
            for n, a in zip(self.cut_normals, self.cut_apothems):
                reach = w @ np.array([n.real, n.imag])
                if (reach > 1e-12).any():
                    f = min(f, float(((a - c @ np.array([n.real, n.imag])) / reach[reach > 1e-12]).min()))
            return f
        u = np.stack([self.normals.real, self.normals.imag], axis=1)
        room = self.apothems - u @ c  # (k,) the centre's distance to each side
        reach = w @ u.T  # (m, k)
        with np.errstate(divide="ignore"):
            bound = np.where(reach > 1e-12, room[None, :] / np.maximum(reach, 1e-12), np.inf)
        return float(bound.min())

    def sample(self, rng: np.random.Generator, inset_mm: float, k: int) -> np.ndarray:
        """``(k,) complex`` points drawn uniformly in the zone inset by ``inset_mm`` (empty if
        nothing is left).

        A disc draws ``k`` points in polar form (as the engine always has); a polygon draws
        in its inset's bounding box and keeps those inside, drawing again until ``k``."""
        if self.normals is None:
            reach = self.radius_mm - inset_mm
            z = reach * np.sqrt(rng.uniform(0, 1, k)) * np.exp(1j * rng.uniform(0, 2 * math.pi, k))
            return z[self._cut_depth(z) >= inset_mm] if len(self.cut_normals) else z
        hx, hy = self.half_extent_mm[0] - inset_mm, self.half_extent_mm[1] - inset_mm
        if hx <= 0 or hy <= 0 or self.inradius_mm <= inset_mm:
            return np.zeros(0, dtype=complex)
        out: list[np.ndarray] = []
        found = 0
        for _ in range(50):
            z = rng.uniform(-hx, hx, 2 * k) + 1j * rng.uniform(-hy, hy, 2 * k)
            z = z[self.depth(z) >= inset_mm]
            out.append(z)
            found += len(z)
            if found >= k:
                break
        return np.concatenate(out)[:k]

    def rim_contacts(self, p: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rim contacts of the points ``p`` ``(m,) complex`` within ``reach`` of the rim.

        Returns ``(which, normal, slack)``: the index into ``p`` of each contact, its unit
        normal (towards the inside) and how far the point may move along ``-normal``
        before it crosses the contact's line (mm; negative where it is beyond it already).
        A disc gives each point near its rim one contact: the chord across the point's own
        direction at the apothem ``R cos(π / n)`` of the inscribed regular
        :data:`RIM_POLYGON`-gon (with the 64-gon's three sides nearest the point instead,
        the packer took about 6 % longer on the default deck for the same density,
        bench/RESULTS.md; the exact check still decides each step). A polygon gives one
        for each of its sides within ``reach``."""
        if self.normals is None:
            distance = np.abs(p)
            far = np.nonzero(distance > self.radius_mm - reach)[0]
            length = distance[far]
            u = p[far] / np.maximum(length, 1e-300)  # the vertex's own direction (never at the centre: near the rim)
            slack = self.radius_mm * math.cos(math.pi / RIM_POLYGON) - length
            which, normal, room = far, -u, slack
            if len(self.cut_normals):  # each cut is one more side
                cut_slack = self.cut_apothems[None, :] - (np.conj(self.cut_normals)[None, :] * p[:, None]).real
                near, side = np.nonzero(cut_slack < reach)
                which = np.concatenate([which, near])
                normal = np.concatenate([normal, -self.cut_normals[side]])
                room = np.concatenate([room, cut_slack[near, side]])
            return which, normal, room
        slack = self.apothems[None, :] - (np.conj(self.normals)[None, :] * p[:, None]).real  # (m, k)
        which, side = np.nonzero(slack < reach)
        return which, -self.normals[side], slack[which, side]
