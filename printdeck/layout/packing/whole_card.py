"""A card's symbols all at once: their vertices, hulls and edges in flat arrays.

The compaction (:mod:`~.compaction`) moves every symbol of a card in one step and then
checks the whole card exactly; :class:`WholeCard` holds what it needs for that as flat
arrays over all the symbols (built once per card), so a step places every vertex, tests
every hull against the safe zone and builds every outline with a few array operations
rather than a loop over the symbols. Lengths are mm, points complex ``x + iy`` in card
coordinates (origin at the centre, y up); "box units" as in :mod:`~.card_state`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import shapely

from printdeck.artwork import EdgeCells
from printdeck.layout.packing.card_state import CardState
from printdeck.layout.packing.symbol_geometry import lower_fields


@lru_cache(maxsize=64)
def every_pair(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every two of ``n`` symbols, ``(first, second)``, each ``(n (n - 1) / 2,) int`` with
    ``first < second``, read-only (made once per ``n``: ``np.triu_indices`` is slow)."""
    first, second = np.triu_indices(n, 1)
    first.flags.writeable = second.flags.writeable = False
    return first, second


def multipart(single: np.ndarray, poly_owner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The polygons of the symbols in several parts, for :meth:`WholeCard.outlines`:
    ``(polygons (P,), their symbols once each (S,), each polygon's place among those (P,))``
    (``single``: per symbol, whether it is one polygon; ``poly_owner``: each polygon's
    symbol, ascending). As ``np.unique`` would give them, without its load of numpy.ma."""
    multi = np.nonzero(~single[poly_owner])[0]
    owners = poly_owner[multi]
    new = np.concatenate([[True], owners[1:] != owners[:-1]]) if len(owners) else np.zeros(0, dtype=bool)
    return multi, owners[new], np.cumsum(new) - 1


def none_by(bad: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """``(n_groups,) bool``: the groups none of whose elements is ``bad`` (``group``: each
    element's group, as ``WholeCard.symbol_card`` gives a symbol's card)."""
    return np.bincount(group[bad], minlength=n_groups) == 0


def planned_share(card: CardState) -> np.ndarray:
    """``(n,)`` each symbol's planned size (target times :func:`~printdeck.artwork.ink_share`,
    as ``DeckPlanner`` plans them) over their mean (:attr:`WholeCard.planned_share`)."""
    planned = card.problem.targets * np.array([g.ink_share for g in card.geometry])
    return planned / planned.mean()


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
        radius_box: ``(n,)`` each symbol's farthest vertex from its centre, box units.
        n_cards: The cards these arrays hold (1; see :mod:`~.whole_batch`).
        symbol_card: ``(n,) int`` the card of each symbol (all 0).
        candidates: ``((C,) int, (C,) int)``: every symbol with every vertex not its own,
            by symbol then vertex (the pairs the contact search looks at).
        ratio_shapes: Where the compaction's size ratio rows have their entries, by the
            largest symbol (see ``compaction._ratio_rows``).
        cell_edge_list: The edges each symbol's :class:`~printdeck.artwork.EdgeCells`
            cells hold, end to end, each numbered within its symbol (see :meth:`cell_edges`).
        planned_share: ``(n,)`` each symbol's planned size (target times
            :func:`~printdeck.artwork.ink_share`, as ``DeckPlanner`` plans them) over their mean.
    """

    def __init__(self, card: CardState) -> None:
        n = card.n_symbols
        counts = np.array([len(v) for v in card.vertices_z])
        self.vertices_z = np.concatenate(card.vertices_z)
        self.owner = np.repeat(np.arange(n), counts)
        self.first = np.concatenate([[0], np.cumsum(counts)])
        self.hull_z = np.concatenate(card.hull_z)
        self.hull_owner = np.repeat(np.arange(n), [len(h) for h in card.hull_z])
        ring_offsets = np.cumsum([0, *(len(r.ring_poly) for r in card.rings)])
        ring = np.concatenate([r.vertex_ring + ring_offsets[i] for i, r in enumerate(card.rings)])  # over the card
        starts = np.nonzero(ring[:-1] == ring[1:])[0]
        self.edge_start = starts
        self.edge_owner = self.owner[starts]
        self.edge_first = np.searchsorted(self.edge_owner, np.arange(n + 1))
        self._ring_ids = ring
        poly_offsets = np.cumsum([0, *(r.polys for r in card.rings)])
        self._ring_poly = np.concatenate([r.ring_poly + poly_offsets[i] for i, r in enumerate(card.rings)])
        self._poly_owner = np.repeat(np.arange(n), [r.polys for r in card.rings])
        self._single = np.array([r.polys == 1 for r in card.rings])
        self._first_poly = poly_offsets[:-1]
        self._multi, self._multi_owners, self._multi_group = multipart(self._single, self._poly_owner)
        self.pair_a, self.pair_b = every_pair(n)
        self.radius_box = card.radius_box
        self.n_cards = 1
        self.symbol_card = np.zeros(n, dtype=int)  # every symbol is on card 0 (a batch has more cards)
        close = np.ones((n, len(self.vertices_z)), dtype=bool)
        close[self.owner, np.arange(len(self.vertices_z))] = False
        self.candidates = np.nonzero(close)  # every (symbol, vertex not its own), by symbol then vertex
        self.planned_share = planned_share(card)
        self.ratio_shapes: dict[int, tuple] = {}  # filled by the compaction's size ratio rows
        self._fields(card)
        self._edge_cells([g.edge_cells for g in card.geometry])

    def _edge_cells(self, cells: list[EdgeCells]) -> None:
        """Every symbol's :class:`~printdeck.artwork.EdgeCells` end to end: per symbol its
        grid's ``x0, y0, size, k`` and its first cell in ``_cell_start`` (``_cell_at``,
        ``(n, 5)``); each cell's first edge in ``cell_edge_list`` (``_cell_start``, the
        symbols' cells one after another, then the end); the cells' edges, each numbered
        within its symbol (``cell_edge_list``)."""
        first_cell = np.cumsum([0, *(len(c.start) - 1 for c in cells)])
        first_edge = np.cumsum([0, *(len(c.edges) for c in cells)])
        self._cell_at = np.array([[c.lo.real, c.lo.imag, c.size, c.k, first_cell[i]] for i, c in enumerate(cells)])
        self._cell_start = np.concatenate(
            [*(c.start[:-1] + first_edge[i] for i, c in enumerate(cells)), first_edge[-1:]]
        )
        self.cell_edge_list = np.concatenate([c.edges for c in cells])

    def cell_edges(self, which: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where the edges that may be nearest to each point ``q`` (complex, box units of
        the symbols ``which``, like ``q``) start in ``cell_edge_list`` and how many there are
        (each ``(P,) int``; see :class:`~printdeck.artwork.EdgeCells`)."""
        x0, y0, size, k, first = self._cell_at[which].T
        ix = np.floor((q.real - x0) / size)
        iy = np.floor((q.imag - y0) / size)
        off = (ix < 0) | (ix >= k) | (iy < 0) | (iy >= k)
        cell = iy * k + ix
        cell[off] = (k * k)[off]  # the off-grid cell: every edge
        at = (first + cell).astype(np.intp)
        return self._cell_start[at], self._cell_start[at + 1] - self._cell_start[at]

    def _fields(self, card: CardState) -> None:
        """Every symbol's lower distance bounds (:meth:`~printdeck.artwork.ShapeField.at_least`)
        in one flat array, each grid row by row and then its off-grid value (the value at
        a far point; see :attr:`~.symbol_geometry.SymbolGeometry.lower_flat`)."""
        fields = card.shape_fields
        self.lower, start = lower_fields(card.problem.silhouettes)
        shape = np.array([f.lower.shape for f in fields])  # (n, 2): ny, nx
        origin = np.array([f.origin for f in fields])
        # per symbol, the field's x0, y0, step, nx, ny and where its grid starts in ``lower``
        self._field_at = np.stack(
            [origin.real, origin.imag, [f.step for f in fields], shape[:, 1], shape[:, 0], start], axis=1
        )

    def lower_at(self, which: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Lower bounds of the distance of the points ``q`` (complex, box units of the
        symbols ``which``, like ``q``) to those symbols' outlines, exactly as
        :meth:`~printdeck.artwork.ShapeField.at_least` gives them."""
        x0, y0, step, nx, ny, start = self._field_at[which].T
        ix = np.rint((q.real - x0) / step)
        iy = np.rint((q.imag - y0) / step)
        at = iy * nx + ix
        off = (ix < 0) | (ix >= nx) | (iy < 0) | (iy >= ny)
        at[off] = (ny * nx)[off]  # just past the grid: its off-grid value
        return self.lower[(start + at).astype(np.intp)]

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
        :meth:`~.symbol_geometry.Rings.build` makes them)."""
        pts = np.ascontiguousarray(z).view(np.float64).reshape(-1, 2)  # (x, y) rows, no copy
        polys = shapely.polygons(shapely.linearrings(pts, indices=self._ring_ids), indices=self._ring_poly)
        out = polys[self._first_poly].astype(object)
        if len(self._multi):
            out[self._multi_owners] = shapely.multipolygons(polys[self._multi], indices=self._multi_group)
        return out
