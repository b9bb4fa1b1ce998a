"""Which edges of a silhouette's outline may be nearest to a point, by where the point is.

The packer's contact search (``printdeck.layout.packing.contacts``) asks, for a vertex of
one symbol near another, which edge of the other is nearest. :class:`EdgeCells` answers it
for a grid of cells over the outline: each cell lists the edges that can be nearest to some
point in it. They depend on the outline alone, so they are found once per silhouette and
stored with it (``printdeck.artwork.tracing``): a cached symbol never finds them again.
Lengths are the silhouette's box units (see :mod:`printdeck.artwork.tracing`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

EDGE_CELLS = 16
"""Cells a side of a symbol's grid."""
EDGE_CELL_MARGIN = 0.25
"""The grid reaches this far (box units) beyond the farthest vertex from the box centre."""
EDGE_ARRAYS = {"edge_start": ("int64", 1), "edge_list": ("int64", 1)}
"""The arrays of stored :class:`EdgeCells` (see :func:`edge_cell_parts`): dtype and dimensions."""


@dataclass(frozen=True)
class EdgeCells:
    """Which edges of a symbol's outline may be nearest to a point, by where the point
    is: a ``k`` by ``k`` grid of square cells over the box (box units), each cell's edges
    those that can be nearest to some point in it, then one more cell of every edge for
    a point off the grid.

    Edges are numbered as the packer's ``WholeCard`` numbers a symbol's (pairs of
    consecutive vertices of one ring, in vertex order).

    Attributes:
        lo: The grid's lower left corner, complex box units.
        size: A cell's side, box units.
        k: Cells a side.
        start: ``(k * k + 2,) int`` where each cell's edges start in ``edges``, cell
            ``iy k + ix``, then the off-grid cell, then the end.
        edges: Each cell's edges, ascending.
    """

    lo: complex
    size: float
    k: int
    start: np.ndarray
    edges: np.ndarray


def _ring_sizes(outline: BaseGeometry) -> np.ndarray:
    """``(rings,) int`` how many coordinates each ring of ``outline`` has, in
    ``shapely.get_coordinates`` order (every part's shell, then its holes; an empty part
    has none)."""
    return np.asarray(shapely.get_num_coordinates(shapely.get_rings(shapely.get_parts(outline))), dtype=np.intp)


def vertex_rings(outline: BaseGeometry) -> np.ndarray:
    """``(V,) int`` the ring number of each of ``outline``'s vertices, in
    ``shapely.get_coordinates`` order."""
    sizes = _ring_sizes(outline)
    return np.repeat(np.arange(len(sizes)), sizes)


def edge_count(outline: BaseGeometry) -> int:
    """How many edges :func:`edge_cells` numbers for ``outline``: two consecutive vertices
    of one ring make one (a ring's first vertex is also its last)."""
    return int(np.maximum(_ring_sizes(outline) - 1, 0).sum())


def edge_cells(vz: np.ndarray, vertex_ring: np.ndarray) -> EdgeCells:
    """The :class:`EdgeCells` of an outline's vertices ``vz`` ``(V,) complex`` (box units),
    ``vertex_ring`` ``(V,) int`` each vertex's ring (:func:`vertex_rings`).

    For a cell of centre ``x`` and half diagonal ``δ``, an edge at distance ``d`` from
    ``x`` is at least ``d - δ`` from any point of the cell, and the nearest edge to ``x``
    (at ``D``) at most ``D + δ``: only edges with ``d <= D + 2δ`` (plus a margin for
    rounding) can be nearest to a point of the cell."""
    e0 = (vertex_ring[:-1] == vertex_ring[1:]).nonzero()[0]
    a, d = vz[e0], vz[e0 + 1] - vz[e0]
    k, half, size = _grid(vz)
    centres = (-half + size * (np.arange(k) + 0.5))[None, :] + 1j * (-half + size * (np.arange(k) + 0.5))[:, None]
    off = centres.reshape(-1, 1) - a[None, :]
    t = np.clip((off * np.conj(d)).real / np.maximum((d * np.conj(d)).real, 1e-18), 0.0, 1.0)
    dist = np.abs(off - t * d)
    slack = 2.0 * size * math.sqrt(2) / 2 + 1e-9
    cell, edge = (dist <= dist.min(axis=1, keepdims=True) + slack).nonzero()  # by cell, then edge
    edges = np.concatenate([edge, np.arange(len(e0))])  # then the off-grid cell: every edge
    start = np.concatenate([np.searchsorted(cell, np.arange(k * k)), [len(edge), len(edges)]])
    edges.flags.writeable = start.flags.writeable = False
    return EdgeCells(complex(-half, -half), size, k, start, edges)


def _grid(vz: np.ndarray) -> tuple[int, float, float]:
    """``(k, half, size)``: the cells a side, the grid's half side and a cell's side (box
    units) of the outline's vertices ``vz`` ``(V,) complex``."""
    half = float(np.abs(vz).max()) + EDGE_CELL_MARGIN
    return EDGE_CELLS, half, 2.0 * half / EDGE_CELLS


def edge_cell_parts(cells: EdgeCells) -> dict[str, np.ndarray]:
    """``cells``' arrays (:data:`EDGE_ARRAYS`), stored with the silhouette; the grid itself
    is found again from the outline's vertices (:func:`edge_cells_from_parts`)."""
    return {"edge_start": cells.start, "edge_list": cells.edges}


def edge_cells_from_parts(arrays: Mapping[str, np.ndarray], vz: np.ndarray, outline: BaseGeometry) -> EdgeCells:
    """The :class:`EdgeCells` :func:`edge_cell_parts` stored for the outline ``outline`` of
    vertices ``vz`` ``(V,) complex``, bit for bit (``arrays`` taken as they are, made
    read-only), once they pass every check the contact search counts on: a list for each
    cell of the grid :func:`edge_cells` lays over these vertices, none empty, each
    ascending, edges the outline has, and the off-grid cell's every edge in order.

    Raises:
        ValueError, KeyError, TypeError: the arrays are not such edge cells.
    """
    k, half, size = _grid(vz)
    n_edges = edge_count(outline)
    start, edges = np.asarray(arrays["edge_start"], dtype=np.int64), np.asarray(arrays["edge_list"], dtype=np.int64)
    if len(start) != k * k + 2 or start[0] != 0 or start[-1] != len(edges) or start[-1] - start[-2] != n_edges:
        raise ValueError("not stored edge cells")
    if not (np.diff(start[:-1]) > 0).all() or start[-1] < start[-2]:  # no grid cell empty, in order
        raise ValueError("not stored edge cells")
    steps = np.diff(edges)
    steps[start[1:-1] - 1] = 1  # a cell's last edge and the next cell's first: any order
    well_formed = (
        bool((steps > 0).all())  # each cell's edges ascending
        and bool(((edges >= 0) & (edges < n_edges)).all())
        and np.array_equal(edges[start[-2] :], np.arange(n_edges))  # the off-grid cell: every edge
    )
    if not well_formed:
        raise ValueError("not stored edge cells")
    start.flags.writeable = edges.flags.writeable = False
    return EdgeCells(complex(-half, -half), size, k, start, edges)
