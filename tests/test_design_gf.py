"""GF(p^k) tables: field axioms (hypothesis) and a cross-check against the galois package."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from printdeck.design.gf import find_primitive_poly, gf, is_prime_power, prime_power

FIELDS = [2, 3, 4, 5, 7, 8, 9, 11, 16, 25, 27, 32, 49, 64, 81, 121, 125, 128]


def test_prime_power_detection() -> None:
    assert prime_power(128) == (2, 7)
    assert prime_power(125) == (5, 3)
    assert prime_power(127) == (127, 1)
    assert [n for n in range(2, 30) if not is_prime_power(n)] == [6, 10, 12, 14, 15, 18, 20, 21, 22, 24, 26, 28]
    with pytest.raises(ValueError, match="not a prime power"):
        gf(12)


@pytest.mark.parametrize("q", [2, 3, 4, 8, 9, 16, 25, 27, 32, 64, 81, 121, 125, 128])
def test_tables_are_a_field(q: int) -> None:
    f = gf(q)
    e = np.arange(q)
    # additive and multiplicative groups: every row a permutation, identities in place
    assert all(sorted(row) == list(range(q)) for row in f.add)
    assert all(sorted(row) == list(range(1, q)) for row in f.mul[1:, 1:])
    assert np.array_equal(f.add[0], e) and np.array_equal(f.mul[1], e)
    assert np.all(f.add[e, f.neg] == 0)
    assert np.all(f.mul[e[1:], f.inv[1:]] == 1)
    assert np.array_equal(f.add, f.add.T) and np.array_equal(f.mul, f.mul.T)
    # characteristic p: p * a = 0
    acc = np.zeros(q, dtype=np.int64)
    for _ in range(f.p):
        acc = f.add[acc, e]
    assert np.all(acc == 0)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FIELDS), st.data())
def test_associative_and_distributive(q: int, data: st.DataObject) -> None:
    f = gf(q)
    a, b, c = (data.draw(st.integers(0, q - 1)) for _ in range(3))
    assert f.mul[f.mul[a, b], c] == f.mul[a, f.mul[b, c]]
    assert f.add[f.add[a, b], c] == f.add[a, f.add[b, c]]
    assert f.mul[a, f.add[b, c]] == f.add[f.mul[a, b], f.mul[a, c]]


def test_against_galois() -> None:
    """Our tables equal galois' arithmetic in the same representation (tests only)."""
    galois = pytest.importorskip("galois")
    for q in (4, 8, 9, 25, 27, 49, 125, 128):
        f = gf(q)
        prime = galois.GF(f.p, compile="python-calculate")
        field = galois.GF(
            q, irreducible_poly=galois.Poly(list(reversed(f.poly)), field=prime), compile="python-calculate"
        )  # no JIT: fast enough for these sizes
        a = field(np.arange(q))
        assert np.array_equal(np.asarray(a[:, None] + a[None, :]), f.add), q
        assert np.array_equal(np.asarray(a[:, None] * a[None, :]), f.mul), q
    for p in (2, 3, 5, 7, 11, 13):  # prime fields: plain modular arithmetic
        e = np.arange(p)
        assert np.array_equal(gf(p).mul, (e[:, None] * e[None, :]) % p)
        assert np.array_equal(gf(p).add, (e[:, None] + e[None, :]) % p)


def test_primitive_polynomial_is_irreducible_and_primitive() -> None:
    galois = pytest.importorskip("galois")
    for p, k in ((2, 7), (3, 4), (5, 3), (11, 2)):
        prime = galois.GF(p, compile="python-calculate")
        poly = galois.Poly(list(reversed(find_primitive_poly(p, k))), field=prime)
        assert poly.is_irreducible() and poly.is_primitive()
