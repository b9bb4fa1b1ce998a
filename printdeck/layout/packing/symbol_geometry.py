"""What the packer derives from one silhouette, found once per silhouette, not once per card.

A deck's cards share their symbols (57 drawings over 55 cards of 8 on the default deck),
and every card's :class:`~.card_state.CardState`, :class:`~.whole_card.WholeCard` and
:class:`~.card_field.CardField` needs the same few arrays of each symbol: its vertices
as complex numbers, its convex hull, how its vertices split into rings, its distance
fields padded for lookups. :func:`symbol_geometry` and :func:`padded_bound` make them the
first time a silhouette is packed and hand the same (read-only) arrays to every card
after. Lengths are the silhouette's box units (see :mod:`printdeck.artwork.tracing`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from printdeck.artwork import EdgeCells, ShapeField, Silhouette, ink_share, sizing_area, vertex_rings

PROBES = 6  # outline vertices probed for a cheap first overlap test
KEPT = 4096  # objects whose derived arrays are kept (a deck uses at most a few hundred)
ATLAS_VALUES = 1 << 21  # values the lower-field atlas starts with (8 MB of float32; see lower_fields)
ATLAS_MOST = 1 << 24  # ... and the most it grows to before it starts again (64 MB)

Source = TypeVar("Source")
Made = TypeVar("Made")


class _ByObject(Generic[Source, Made]):
    """``make(obj)``, remembered by the object's identity (the object is held, so its id
    is not reused while the entry lives); the oldest of :data:`KEPT` entries go first."""

    def __init__(self, make: Callable[[Source], Made]) -> None:
        self._make = make
        self._kept: dict[int, tuple[Source, Made]] = {}

    def __call__(self, obj: Source) -> Made:
        got = self._kept.get(id(obj))
        if got is None or got[0] is not obj:
            got = self._kept[id(obj)] = (obj, self._make(obj))
            while len(self._kept) > KEPT:
                del self._kept[next(iter(self._kept))]
        return got[1]


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
        """How ``outline``'s vertices (in ``shapely.get_coordinates`` order) split into rings
        (:func:`~printdeck.artwork.vertex_rings`, the numbering the edge cells use)."""
        parts = shapely.get_parts(outline)
        _, ring_poly = shapely.get_rings(parts, return_index=True)  # each ring's part
        return cls(vertex_rings(outline), ring_poly, len(parts))

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


@dataclass(frozen=True)
class SymbolGeometry:
    """One silhouette's arrays as the packer uses them (box units; see :class:`~.card_state.CardState`).

    Attributes:
        vertices_z: ``(V,) complex`` outline vertices ``x + iy``.
        hull_z: ``(H,) complex`` convex hull vertices.
        rings: How the vertices split into rings and polygons.
        probe_vertices: ``(<= PROBES,) int`` vertices probed first for overlaps.
        sizing_side: Square root of the sizing area (:func:`~printdeck.artwork.sizing_area`).
        ink_side: Square root of the ink area.
        ink_share: :func:`~printdeck.artwork.ink_share`.
        lower_flat: ``(ny * nx + 1,) float32`` the field's lower bounds row by row, then the
            value it gives a point off its grid (:meth:`~printdeck.artwork.ShapeField.at_least`).
        edge_cells: The edges that may be nearest to a point, by where it is (the contact search's).
    """

    vertices_z: np.ndarray
    hull_z: np.ndarray
    rings: Rings
    probe_vertices: np.ndarray
    sizing_side: float
    ink_side: float
    ink_share: float
    lower_flat: np.ndarray
    edge_cells: EdgeCells


def _geometry(sil: Silhouette) -> SymbolGeometry:
    """Make :class:`SymbolGeometry` of ``sil``."""
    v = sil.vertices
    hull = shapely.get_coordinates(shapely.convex_hull(sil.outline))
    f = sil.field
    off = f.at_least(np.array([f.origin - complex(1e6, 1e6)]))  # the off-grid value
    exact = np.concatenate([f.lower.ravel(), off])
    lower = exact.astype(np.float32)  # as ShapeField keeps them: then the same values
    over = lower > exact
    lower[over] = np.nextafter(lower[over], np.float32(-np.inf))  # rounded down: still lower bounds
    arrays = (
        v[:, 0] + 1j * v[:, 1],
        hull[:, 0] + 1j * hull[:, 1],
        np.array(sorted(set(np.linspace(0, len(v) - 1, PROBES).round().astype(int).tolist())), dtype=int),
        lower,
    )
    for a in arrays:  # (the probes sorted by hand: np.unique would load numpy.ma, 5 ms, for it)
        a.flags.writeable = False  # shared by every card
    vz, hz, probes, lower = arrays
    rings = Rings.of(sil.outline)
    return SymbolGeometry(
        vz,
        hz,
        rings,
        probes,
        math.sqrt(sizing_area(sil)),
        math.sqrt(sil.area),
        ink_share(sil),
        lower,
        sil.edge_cells,  # stored with the silhouette: found once per drawing, not once per build
    )


def _padded(field: ShapeField) -> np.ndarray:
    """``field.bound`` with a border of ``inf`` (a point off a shape's grid is far from it)."""
    ny, nx = field.bound.shape
    padded = np.full((ny + 2, nx + 2), np.inf, dtype=field.bound.dtype)
    padded[1:-1, 1:-1] = field.bound
    padded.flags.writeable = False
    return padded


_GEOMETRY: _ByObject[Silhouette, SymbolGeometry] = _ByObject(_geometry)
_PADDED: _ByObject[ShapeField, np.ndarray] = _ByObject(_padded)


def symbol_geometry(sil: Silhouette) -> SymbolGeometry:
    """The :class:`SymbolGeometry` of ``sil``, made once per silhouette (read-only arrays)."""
    return _GEOMETRY(sil)


def padded_bound(field: ShapeField) -> np.ndarray:
    """``field.bound`` with a border of ``inf``, made once per field (read-only)."""
    return _PADDED(field)


class _Atlas:
    """Lower fields (:attr:`SymbolGeometry.lower_flat`) of the silhouettes packed so far,
    one after another in one array that only grows, so a card's fields are one array
    without copying them per card. A full array is replaced by one twice as big (or,
    past :data:`ATLAS_MOST` values, by an empty one); arrays handed out before stay valid
    for the silhouettes they held."""

    def __init__(self) -> None:
        self.values = np.empty(ATLAS_VALUES, dtype=np.float32)
        self.used = 0
        self.start: dict[int, tuple[Silhouette, int]] = {}

    def starts(self, sils: tuple[Silhouette, ...] | list[Silhouette]) -> tuple[np.ndarray, np.ndarray]:
        """``(values, starts)``: an array holding every field of ``sils`` and where each starts."""
        flats = [symbol_geometry(sil).lower_flat for sil in sils]
        new = [k for k, sil in enumerate(sils) if self.start.get(id(sil), (None,))[0] is not sil]
        need = self.used + sum(len(flats[k]) for k in new)
        if need > len(self.values):
            if need > ATLAS_MOST and self.used:  # start again, with only this card's fields
                self.values, self.used, self.start = np.empty(ATLAS_VALUES, dtype=np.float32), 0, {}
                return self.starts(sils)
            grown = np.empty(max(2 * len(self.values), need), dtype=np.float32)
            grown[: self.used] = self.values[: self.used]
            self.values = grown
        for k in new:
            if self.start.get(id(sils[k]), (None,))[0] is not sils[k]:  # (a symbol twice on a card: once)
                end = self.used + len(flats[k])
                self.values[self.used : end] = flats[k]
                self.start[id(sils[k])] = (sils[k], self.used)
                self.used = end
        return self.values, np.array([self.start[id(sil)][1] for sil in sils])


_ATLAS = _Atlas()


_ATLAS_LOCK = threading.Lock()  # a studio may pack cards on several threads


def lower_fields(sils: tuple[Silhouette, ...] | list[Silhouette]) -> tuple[np.ndarray, np.ndarray]:
    """Every one of ``sils``' lower fields (:attr:`SymbolGeometry.lower_flat`) in one array:
    ``(values, starts)``, silhouette k's field at ``values[starts[k]:]`` (not copied per
    card; treat ``values`` as read-only)."""
    with _ATLAS_LOCK:
        return _ATLAS.starts(sils)


def derive_all(sils: Iterable[Silhouette]) -> None:
    """Make now what the packer derives from each of ``sils`` (:func:`symbol_geometry`,
    :func:`padded_bound` of its field, its place in :func:`lower_fields`): before worker
    processes fork, so each inherits them instead of making them again."""
    kept = list(sils)
    for sil in kept:
        symbol_geometry(sil)
        padded_bound(sil.field)
    lower_fields(kept)
