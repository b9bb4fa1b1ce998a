"""A card's symbols all at once: their vertices, hulls and edges in flat arrays.

The compaction (:mod:`~.compaction`) moves every symbol of a card in one step and then
checks the whole card exactly; :class:`WholeCard` holds what it needs for that as flat
arrays over all the symbols (built once per card), so a step places every vertex, tests
every hull against the safe zone and builds every outline with a few array operations
rather than a loop over the symbols. Lengths are mm, points complex ``x + iy`` in card
coordinates (origin at the centre, y up); "box units" as in :mod:`~.card_state`.
"""

from __future__ import annotations

import numpy as np
import shapely

from printdeck.artwork import ink_share
from printdeck.layout.packing.card_state import CardState


class WholeCard:
    """Flat per-card arrays of a :class:`~.card_state.CardState`'s symbols.

    Attributes:
        vertices_z: ``(V,) complex`` every symbol's outline vertices, box units, symbol by symbol.
        owner: ``(V,) int`` the symbol of each vertex.
        first: ``(n + 1,) int`` where each symbol's vertices start in ``vertices_z``.
        hull_z: ``(H,) complex`` every symbol's convex hull vertices, box units.
        hull_owner: ``(H,) int`` the symbol of each hull vertex.
        edge_start: ``(E,) int`` index into ``vertices_z`` of each edge's first vertex
            (the next vertex ends it: consecutive vertices of one ring).
        edge_owner: ``(E,) int`` the symbol of each edge (the edges symbol by symbol).
        edge_first: ``(n + 1,) int`` where each symbol's edges start in ``edge_start``.
        pair_a: ``(n (n - 1) / 2,) int`` the first symbol of every two, ...
        pair_b: ... and the second (``pair_a < pair_b``).
        planned: ``(n,)`` each symbol's planned size relative to the others (target
            times :func:`~printdeck.artwork.ink_share`, as ``DeckPlanner`` plans them).
    """

    def __init__(self, card: CardState) -> None:
        n = card.n_symbols
        counts = np.array([len(v) for v in card.vertices_z])
        self.vertices_z = np.concatenate(card.vertices_z)
        self.owner = np.repeat(np.arange(n), counts)
        self.first = np.concatenate([[0], np.cumsum(counts)])
        self.hull_z = np.concatenate(card.hull_z)
        self.hull_owner = np.repeat(np.arange(n), [len(h) for h in card.hull_z])
        rings = [r.vertex_ring + 100_000 * i for i, r in enumerate(card.rings)]  # ring ids unique over the card
        ring = np.concatenate(rings)
        starts = np.nonzero(ring[:-1] == ring[1:])[0]
        self.edge_start = starts
        self.edge_owner = self.owner[starts]
        self.edge_first = np.searchsorted(self.edge_owner, np.arange(n + 1))
        self._ring_ids = np.unique(ring, return_inverse=True)[1]
        poly_offsets = np.cumsum([0, *(r.polys for r in card.rings)])
        self._ring_poly = np.concatenate([r.ring_poly + poly_offsets[i] for i, r in enumerate(card.rings)])
        self._poly_owner = np.repeat(np.arange(n), [r.polys for r in card.rings])
        self._single = np.array([r.polys == 1 for r in card.rings])
        self._first_poly = poly_offsets[:-1]
        self.pair_a, self.pair_b = np.triu_indices(n, 1)  # every two symbols (np.triu_indices is slow)
        self.planned = card.problem.targets * np.array([ink_share(sil) for sil in card.problem.silhouettes])
        self._fields(card)

    def _fields(self, card: CardState) -> None:
        """Every symbol's lower distance bounds (:meth:`~printdeck.artwork.ShapeField.at_least`)
        in one array, each grid padded with its off-grid value (the value at a far point)."""
        fields = card.shape_fields
        ny = max(f.lower.shape[0] for f in fields)
        nx = max(f.lower.shape[1] for f in fields)
        self.lower = np.empty((len(fields), ny + 1, nx + 1))
        for i, f in enumerate(fields):
            self.lower[i] = f.at_least(np.array([f.origin - complex(1e6, 1e6)]))[0]
            self.lower[i, : f.lower.shape[0], : f.lower.shape[1]] = f.lower
        self.field_origin = np.array([f.origin for f in fields])
        self.field_step = np.array([f.step for f in fields])

    def lower_at(self, which: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Lower bounds of the distance of the points ``q`` (complex, box units of the
        symbols ``which``, like ``q``) to those symbols' outlines, exactly as
        :meth:`~printdeck.artwork.ShapeField.at_least` gives them."""
        origin, step = self.field_origin[which], self.field_step[which]
        _, ny, nx = self.lower.shape
        ix = np.rint((q.real - origin.real) / step).astype(int)
        iy = np.rint((q.imag - origin.imag) / step).astype(int)
        off = (ix < 0) | (ix >= nx) | (iy < 0) | (iy >= ny)
        ix[off], iy[off] = nx - 1, ny - 1  # the padding: the off-grid value
        return self.lower[which, iy, ix]

    def placed(self, centres: np.ndarray, angles: np.ndarray, heights: np.ndarray) -> np.ndarray:
        """``(V,) complex`` every vertex placed at the symbols' ``centres`` ``(n, 2)`` mm,
        ``angles`` ``(n,)`` rad and ``heights`` ``(n,)`` mm."""
        turn = np.exp(1j * angles) * heights
        return turn[self.owner] * self.vertices_z + (centres[:, 0] + 1j * centres[:, 1])[self.owner]

    def hulls_placed(self, centres: np.ndarray, angles: np.ndarray, heights: np.ndarray) -> np.ndarray:
        """``(H,) complex`` every convex hull vertex placed as in :meth:`placed`."""
        turn = np.exp(1j * angles) * heights
        return turn[self.hull_owner] * self.hull_z + (centres[:, 0] + 1j * centres[:, 1])[self.hull_owner]

    def outlines(self, z: np.ndarray) -> np.ndarray:
        """``(n,)`` the symbols' outlines from every placed vertex ``z`` ``(V,) complex``
        (polygons, or multipolygons for symbols in several parts, as
        :meth:`~.card_state.Rings.build` makes them)."""
        pts = np.stack([z.real, z.imag], axis=1)
        polys = shapely.polygons(shapely.linearrings(pts, indices=self._ring_ids), indices=self._ring_poly)
        out = polys[self._first_poly].astype(object)
        if not self._single.all():
            multi = np.nonzero(~self._single[self._poly_owner])[0]
            owners = self._poly_owner[multi]
            made = shapely.multipolygons(polys[multi], indices=np.unique(owners, return_inverse=True)[1])
            out[np.unique(owners)] = made
        return out
