"""Projective planes PG(2, q) for every prime power q, and their Singer cyclic form.

PG(2, q) (Veblen & Bussey 1906; existence for every prime power order): points and
lines are the 1-dimensional and 2-dimensional subspaces of GF(q)^3; point x lies on
line u when u0*x0 + u1*x1 + u2*x2 = 0. There are N = q^2 + q + 1 of each, q + 1 points
on a line, and two lines meet in exactly one point.

Singer (1938): the multiplicative group of GF(q^3) acts on PG(2, q) as a cyclic group
of order N that is transitive on points; numbering points along one orbit turns every
line into a translate ``D + i (mod N)`` of one perfect difference set D.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from printdeck.design.gf import GF, gf


def _normalized_vectors(q: int) -> np.ndarray:
    """All normalised vectors of GF(q)^3 (first non-zero coordinate 1), in rank order.

    Returns:
        (q^2 + q + 1, 3) int64: (1, a, b) ranked a*q + b, then (0, 1, b) ranked
        q^2 + b, then (0, 0, 1) ranked q^2 + q.
    """
    a, b = np.divmod(np.arange(q * q, dtype=np.int64), q)
    ones = np.ones(q * q, dtype=np.int64)
    affine = np.stack([ones, a, b], axis=1)
    r = np.arange(q, dtype=np.int64)
    infinite = np.stack([np.zeros(q, np.int64), np.ones(q, np.int64), r], axis=1)
    return np.concatenate([affine, infinite, np.array([[0, 0, 1]], dtype=np.int64)])


def _rank(field: GF, vec: np.ndarray) -> np.ndarray:
    """Normalise vectors and return their point numbers.

    Args:
        field: GF(q) tables.
        vec: (..., 3) int64 non-zero vectors over GF(q).

    Returns:
        (...) int64 ranks as in :func:`_normalized_vectors`.
    """
    q = field.q
    x0, x1, x2 = vec[..., 0], vec[..., 1], vec[..., 2]
    lead = np.where(x0 != 0, x0, np.where(x1 != 0, x1, x2))
    s = field.inv[lead]
    y1, y2 = field.mul[s, x1], field.mul[s, x2]
    return np.where(x0 != 0, y1 * q + y2, np.where(x1 != 0, q * q + y2, q * q + q))


@lru_cache(maxsize=64)
def pg2_blocks(q: int) -> np.ndarray:
    """Lines of PG(2, q) over GF(q) as point numbers.

    Line u (normalised) is spanned by two vectors v1, v2 orthogonal to u; its points
    are s*v1 + v2 for s in GF(q), and v1.

    Args:
        q: A prime power.

    Returns:
        (N, q + 1) int64, N = q^2 + q + 1; row i is line number i (ranked like points),
        each row sorted ascending. Read-only, cached.

    Raises:
        ValueError: q is not a prime power.
    """
    f = gf(q)
    u = _normalized_vectors(q)
    n = len(u)
    zero, one = np.zeros(n, np.int64), np.ones(n, np.int64)
    u0, u1, u2 = u[:, 0], u[:, 1], u[:, 2]
    aff, fin = u0 == 1, (u0 == 0) & (u1 == 1)
    # u = (1,a,b): v1 = (-a,1,0), v2 = (-b,0,1); u = (0,1,b): v1 = (1,0,0), v2 = (0,-b,1);
    # u = (0,0,1): v1 = (1,0,0), v2 = (0,1,0).
    v1 = np.stack([np.where(aff, f.neg[u1], one), np.where(aff, one, zero), zero], axis=1)
    v2 = np.stack([np.where(aff, f.neg[u2], zero),
                   np.where(aff, zero, np.where(fin, f.neg[u2], one)),
                   np.where(aff | fin, one, zero)], axis=1)
    s = np.arange(q, dtype=np.int64)[None, :, None]
    pts = f.add[f.mul[s, v1[:, None, :]], v2[:, None, :]]  # (n, q, 3)
    ranks = np.concatenate([_rank(f, pts), _rank(f, v1)[:, None]], axis=1)
    ranks.sort(axis=1)
    ranks.setflags(write=False)
    return ranks


def _apply(field: GF, mat: np.ndarray, vec: np.ndarray) -> np.ndarray:
    """Matrix times vectors over GF(q): (3, 3) @ (n, 3) -> (n, 3)."""
    add, mul = field.add, field.mul
    cols = [add[add[mul[mat[r, 0], vec[:, 0]], mul[mat[r, 1], vec[:, 1]]], mul[mat[r, 2], vec[:, 2]]]
            for r in range(3)]
    return np.stack(cols, axis=1)


def _orbit(perm: list[int]) -> list[int] | None:
    """The orbit of point 0 under ``perm`` if it is a single cycle through all points."""
    n = len(perm)
    order, x = [0], perm[0]
    while x != 0:
        order.append(x)
        if len(order) > n:
            return None  # pragma: no cover - perm is a permutation
        x = perm[x]
    return order if len(order) == n else None


def _singer_cycle(q: int) -> list[int]:
    """Points of PG(2, q) in the order of a Singer cycle (orbit of point 0).

    The cycle is the collineation induced by the companion matrix of a cubic
    y^3 = c0 + c1*y + c2*y^2 over GF(q); cubics are tried in a fixed order until
    one acts as a single N-cycle (it is then irreducible and a root generates
    GF(q^3)* modulo GF(q)*, Singer 1938).
    """
    f = gf(q)
    pts = _normalized_vectors(q)
    t = np.arange(q)
    for code in range(q, q**3):
        c0, c1, c2 = code % q, (code // q) % q, code // (q * q)
        # a root t in GF(q) means reducible: skip quickly
        val = f.add[f.add[f.mul[f.mul[t, t], t], f.neg[f.mul[c2, f.mul[t, t]]]],
                    f.neg[f.add[f.mul[c1, t], c0]]]
        if np.any(val == 0):
            continue
        comp = np.array([[0, 0, c0], [1, 0, c1], [0, 1, c2]], dtype=np.int64)
        orbit = _orbit(_rank(f, _apply(f, comp, pts)).tolist())
        if orbit is not None:
            return orbit
    raise AssertionError(f"no Singer cycle found for q={q}")  # pragma: no cover


@lru_cache(maxsize=64)
def singer_difference_set(q: int) -> tuple[int, ...]:
    """A perfect (q^2+q+1, q+1, 1) difference set in Z_N (Singer 1938).

    Computed as the positions, along a Singer cycle, of the points of one line of
    PG(2, q); its translates are the lines of the plane.

    Args:
        q: A prime power.

    Returns:
        The q + 1 residues, sorted, starting with 0.
    """
    orbit = _singer_cycle(q)
    position = np.empty(len(orbit), dtype=np.int64)
    position[np.asarray(orbit)] = np.arange(len(orbit))
    d = np.sort(position[pg2_blocks(q)[0]])
    return tuple(int(x) for x in np.sort((d - d[0]) % len(orbit)))


def cyclic_blocks(base: tuple[int, ...] | np.ndarray, v: int) -> np.ndarray:
    """Develop a difference set: blocks ``base + i (mod v)`` for i = 0..v-1.

    Args:
        base: (k,) residues mod v.
        v: Modulus.

    Returns:
        (v, k) int64, each row sorted.
    """
    rows = (np.asarray(base, dtype=np.int64)[None, :] + np.arange(v, dtype=np.int64)[:, None]) % v
    rows.sort(axis=1)
    return rows


def singer_blocks(q: int) -> np.ndarray:
    """PG(2, q) in cyclic form: (N, q + 1) int64 translates of the Singer difference set."""
    return cyclic_blocks(singer_difference_set(q), q * q + q + 1)
