"""Every known biplane, checked by a dense Gram matrix: M M^T = (k - 2) I + 2 J."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from printdeck.design import BIPLANE_SIZES, make_design
from printdeck.design.biplanes import biplane_blocks
from printdeck.errors import PrintdeckError


@pytest.mark.parametrize("k", sorted(BIPLANE_SIZES))
def test_biplane_is_symmetric_2_design(k: int) -> None:
    blocks, how = biplane_blocks(k)
    v = BIPLANE_SIZES[k]
    assert v == 1 + k * (k - 1) // 2
    assert blocks.shape == (v, k) and f"({v},{k},2)" in how
    m = np.zeros((v, v), dtype=np.int64)
    m[np.arange(v)[:, None], blocks] = 1
    assert np.array_equal(m @ m.T, (k - 2) * np.eye(v, dtype=np.int64) + 2)
    assert np.array_equal(m.T @ m, (k - 2) * np.eye(v, dtype=np.int64) + 2)  # dual too


def test_biplane_79_pairwise_in_pure_python() -> None:
    blocks = [set(b) for b in biplane_blocks(13)[0].tolist()]
    assert len(blocks) == 79 and all(len(b) == 13 for b in blocks)
    assert all(len(a & b) == 2 for a, b in itertools.combinations(blocks, 2))


def test_gewirtz_graph_is_strongly_regular() -> None:
    """The (56,11,2) blocks minus their own vertex are srg(56,10,0,2) neighbourhoods."""
    blocks = biplane_blocks(11)[0]
    adj = np.zeros((56, 56), dtype=np.int64)
    adj[np.arange(56)[:, None], blocks] = 1
    assert np.all(np.diag(adj) == 1)
    adj -= np.eye(56, dtype=np.int64)
    assert np.array_equal(adj, adj.T)
    sq = adj @ adj
    off = ~np.eye(56, dtype=bool)
    assert set(sq[off & (adj == 1)].tolist()) == {0} and set(sq[off & (adj == 0)].tolist()) == {2}


def test_make_design_match_two() -> None:
    d = make_design(symbols_per_card=6, match=2)
    assert d.lam == 2 and d.order == 4 and d.n_points == 16 and len(d.blocks) == 16
    assert make_design(order=11, match=2).n_points == 79


@pytest.mark.parametrize(
    "k, reason",
    [
        (7, "Bruck–Ryser–Chowla"),
        (8, "Bruck–Ryser–Chowla"),
        (10, "Bruck–Ryser–Chowla"),
        (14, "Schützenberger"),
        (20, "largest known"),
    ],
)
def test_missing_biplanes_are_refused_with_reason(k: int, reason: str) -> None:
    with pytest.raises(PrintdeckError, match=reason) as exc:
        make_design(symbols_per_card=k, match=2)
    assert "3, 4, 5, 6, 9, 11 or 13" in str(exc.value)


def test_every_even_deck_is_refused_for_the_same_reason() -> None:
    """k = 7 (22 cards) was refused citing Bruck–Ryser–Chowla, k = 14 (92 cards) citing
    Schützenberger: two true theorems for one case, an even number of cards whose order is
    not a square. Every such refusal now gives the same reason; an odd deck's, the theorem's."""
    from printdeck.design.reasons import biplane_status

    even = (7, 10, 14, 15)
    assert all((1 + k * (k - 1) // 2) % 2 == 0 for k in even)
    assert len({re.sub(r"\d+", "N", biplane_status(k)) for k in even}) == 1, [biplane_status(k) for k in even]
    for k in (8, 12):
        assert "Bruck–Ryser–Chowla theorem 1950" in biplane_status(k) and "even" not in biplane_status(k)
    with pytest.raises(PrintdeckError, match="22 cards is even, so the order 5 would have to be a square"):
        make_design(symbols_per_card=7, match=2)
