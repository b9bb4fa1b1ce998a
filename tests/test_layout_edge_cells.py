"""The contact search's edge cells (:class:`printdeck.artwork.edge_cells.EdgeCells`): searching only a cell's
edges finds the nearest edge every edge of the symbol gives, to the bit, first on a tie.

b315202 made the search look at a point's cell's edges only, on an argument in exact
arithmetic (an edge at d from a cell's centre can be nearest only if d <= D + 2δ, with
1e-9 box units for rounding); the golden builds are the only other check of it. Here the
cells are compared with the whole outline on the awkward shapes (several parts, holes,
thin strokes) placed on cards, at the card's own vertices, every cell's corners and edge
midpoints, points a rounding step either side of them, the outline's own vertices and
edge midpoints (ties), and random points over the grid.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from test_layout_compact import _problem, _state, awkward  # noqa: F401 - awkward: the fixture
from test_layout_support import deck_cards

from printdeck.layout.packing import pack_card
from printdeck.layout.packing.contacts import nearest_edge_of
from printdeck.layout.packing.whole_card import WholeCard


def _every_edge(whole: WholeCard, which: np.ndarray, _q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`WholeCard.cell_edges` as if every point were off the grid: every edge."""
    _, _, _, k, first = whole._cell_at[which].T
    at = (first + k * k).astype(np.intp)
    return whole._cell_start[at], whole._cell_start[at + 1] - whole._cell_start[at]


def _box_points(whole: WholeCard, s: int, rng: np.random.Generator) -> np.ndarray:
    """Points of symbol ``s``'s box (box units) where a cell's list could be short."""
    x0, y0, size, k, _ = whole._cell_at[s]
    g = x0 + size * np.arange(int(k) + 1)
    h = y0 + size * np.arange(int(k) + 1)
    corners = (g[None, :] + 1j * h[:, None]).ravel()
    mids = np.concatenate(
        [
            ((g[:-1] + size / 2)[None, :] + 1j * h[:, None]).ravel(),
            (g[None, :] + 1j * (h[:-1] + size / 2)[:, None]).ravel(),
        ]
    )
    nudged = np.concatenate(
        [
            np.nextafter(corners.real, -np.inf) + 1j * corners.imag,
            corners.real + 1j * np.nextafter(corners.imag, np.inf),
        ]
    )
    own = whole.vertices_z[whole.owner == s]
    starts = whole.edge_start[whole.edge_first[s] : whole.edge_first[s + 1]]
    edge_mids = (whole.vertices_z[starts] + whole.vertices_z[starts + 1]) / 2
    spread = x0 + size * k * rng.random(2000) + 1j * (y0 + size * k * rng.random(2000))
    return np.concatenate([corners, mids, nudged, own, edge_mids, spread])


def _same(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> bool:
    return all(x.tobytes() == y.tobytes() for x, y in zip(a, b))


def test_a_cells_edges_find_what_every_edge_finds(awkward, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    rng = np.random.default_rng(7)
    for k, symbols in enumerate(deck_cards(awkward.symbols, 7)[:3]):
        prob = _problem(awkward, symbols, compact_steps=0)
        card = _state(prob, pack_card(prob, np.random.default_rng([5, k])))
        whole = WholeCard(card)
        allz = whole.placed(card.centers_mm, card.angles_rad, card.heights_mm)
        for s in range(card.n_symbols):
            box = _box_points(whole, s, rng)
            turn = np.exp(1j * card.angles_rad[s]) * card.heights_mm[s]
            centre = complex(*card.centers_mm[s])
            p = turn * box + centre
            q = (
                (p - centre)
                * complex(math.cos(-card.angles_rad[s]), math.sin(-card.angles_rad[s]))
                / card.heights_mm[s]
            )
            b = np.full(len(p), s)
            found = nearest_edge_of(whole, allz, b, p, q)
            with monkeypatch.context() as m:
                m.setattr(whole, "cell_edges", functools.partial(_every_edge, whole))
                every = nearest_edge_of(whole, allz, b, p, q)
            assert _same(found, every), (k, s)
