"""Planes PG(2, q) for every prime power q, field form and Singer form, checked by
code independent of printdeck's own verifier (dense Gram matrix and pure Python)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from printdeck.design.gf import is_prime_power
from printdeck.design.planes import pg2_blocks, singer_blocks, singer_difference_set

SMALL = [q for q in range(2, 33) if is_prime_power(q)]
ALL = [q for q in range(2, 129) if is_prime_power(q)]


def gram(blocks: np.ndarray) -> np.ndarray:
    n_pts = int(blocks.max()) + 1
    m = np.zeros((len(blocks), n_pts), dtype=np.float64)
    for i, row in enumerate(blocks):
        m[i, row] = 1
    return np.rint(m @ m.T).astype(np.int32)  # BLAS; exact for these small integers


def assert_plane(blocks: np.ndarray, q: int) -> None:
    n = q * q + q + 1
    assert blocks.shape == (n, q + 1)
    assert int(blocks.min()) == 0 and int(blocks.max()) == n - 1
    g = gram(blocks)
    assert np.array_equal(g, np.full((n, n), 1) + q * np.eye(n, dtype=np.int32))


@pytest.mark.parametrize("q", SMALL)
def test_field_plane_is_a_projective_plane(q: int) -> None:
    assert_plane(pg2_blocks(q), q)


@pytest.mark.parametrize("q", SMALL)
def test_singer_plane_is_a_projective_plane(q: int) -> None:
    assert_plane(singer_blocks(q), q)


@pytest.mark.parametrize("q", ALL)
def test_singer_set_is_a_perfect_difference_set(q: int) -> None:
    """Every non-zero residue mod N is exactly one difference (pure Python count)."""
    d = singer_difference_set(q)
    n = q * q + q + 1
    assert len(d) == q + 1
    diffs = sorted((a - b) % n for a, b in itertools.permutations(d, 2))
    assert diffs == list(range(1, n))


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27])
def test_field_and_singer_forms_agree(q: int) -> None:
    """Numbering the field plane's points along the Singer cycle gives exactly the
    translates of the Singer difference set (the two constructions are one plane)."""
    from printdeck.design.planes import _singer_cycle

    orbit = _singer_cycle(q)
    pos = np.empty(len(orbit), dtype=np.int64)
    pos[np.asarray(orbit)] = np.arange(len(orbit))
    relabelled = {tuple(sorted(pos[row])) for row in pg2_blocks(q)}
    assert relabelled == {tuple(row) for row in singer_blocks(q)}


def test_pure_python_pairwise_on_order_7() -> None:
    blocks = [set(r) for r in singer_blocks(7).tolist()]
    assert all(len(a & b) == 1 for a, b in itertools.combinations(blocks, 2))
    blocks = [set(r) for r in pg2_blocks(7).tolist()]
    assert all(len(a & b) == 1 for a, b in itertools.combinations(blocks, 2))


@pytest.mark.parametrize("q", [64, 101, 128])
def test_large_planes_verify(q: int) -> None:
    from printdeck.design.verify import verify_blocks

    blocks = singer_blocks(q)
    rep = verify_blocks(blocks, 1)
    assert rep.ok and rep.cards == q * q + q + 1
    assert set(rep.frequencies.tolist()) == {q + 1}
