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

    Points and lines are numbered alike (see :func:`_normalized_vectors`): (1, y, z)
    is y*q + z, (0, 1, z) is q^2 + z, (0, 0, 1) is q^2 + q. For each line u the
    equation u . x = 0 is solved in closed form, case by case, with the GF(q) tables:

    * u = (1, a, b), b != 0: (1, y, -(1 + a y)/b) for every y, and (0, 1, -a/b);
    * u = (1, a, 0): (1, -1/a, z) for every z if a != 0, else (0, 1, z); and (0, 0, 1);
    * u = (0, 1, b): (1, -b z, z) for every z, and (0, 1, -1/b) if b != 0 else (0, 0, 1);
    * u = (0, 0, 1): (1, y, 0) for every y, and (0, 1, 0).

    Args:
        q: A prime power.

    Returns:
        (N, q + 1) int64, N = q^2 + q + 1; row i is line number i, each row sorted
        ascending. Read-only, cached.

    Raises:
        ValueError: q is not a prime power.
    """
    f = gf(q)
    e = np.arange(q, dtype=np.int64)
    add, mul, neg, inv = f.add, f.mul, f.neg, f.inv
    rows = np.empty((q * q + q + 1, q + 1), dtype=np.int64)
    aff = rows[: q * q].reshape(q, q, q + 1)  # aff[a, b] is line (1, a, b)
    inv_b = inv[e[1:]]
    z = mul[neg[add[1, mul[e[:, None], e[None, :]]]][:, None, :], inv_b[None, :, None]]  # (a, b, y)
    aff[:, 1:, :q] = e * q + z
    aff[:, 1:, q] = q * q + mul[neg[e][:, None], inv_b[None, :]]
    aff[1:, 0, :q] = neg[inv[e[1:]]][:, None] * q + e
    aff[0, 0, :q] = q * q + e
    aff[:, 0, q] = q * q + q
    fin = rows[q * q : q * q + q]  # fin[b] is line (0, 1, b)
    fin[:, :q] = mul[neg[e][:, None], e[None, :]] * q + e
    fin[1:, q] = q * q + neg[inv[e[1:]]]
    fin[0, q] = q * q + q
    rows[-1, :q] = e * q  # line (0, 0, 1)
    rows[-1, q] = q * q
    rows.sort(axis=1)
    rows.setflags(write=False)
    return rows


def _apply(field: GF, mat: np.ndarray, vec: np.ndarray) -> np.ndarray:
    """Matrix times vectors over GF(q): (3, 3) @ (n, 3) -> (n, 3)."""
    add, mul = field.add, field.mul
    cols = [add[add[mul[mat[r, 0], vec[:, 0]], mul[mat[r, 1], vec[:, 1]]], mul[mat[r, 2], vec[:, 2]]] for r in range(3)]
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
        val = f.add[f.add[f.mul[f.mul[t, t], t], f.neg[f.mul[c2, f.mul[t, t]]]], f.neg[f.add[f.mul[c1, t], c0]]]
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
    PG(2, q) (the line x0 = 0); the cycle maps lines to lines, so the translates of
    this set are the lines of the plane.

    Args:
        q: A prime power.

    Returns:
        The q + 1 residues, sorted, starting with 0.
    """
    orbit = _singer_cycle(q)
    position = np.empty(len(orbit), dtype=np.int64)
    position[np.asarray(orbit)] = np.arange(len(orbit))
    line = np.arange(q * q, q * q + q + 1)  # the line x0 = 0: points (0,1,b) and (0,0,1)
    d = np.sort(position[line])
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
