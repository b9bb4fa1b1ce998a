"""Finite fields GF(p^k) as lookup tables, built from a searched primitive polynomial.

Elements of GF(q), q = p^k, are the integers 0..q-1: the base-p digits of an element
are the coefficients of a polynomial in x of degree < k (digit i = coefficient of x^i),
reduced modulo a monic primitive polynomial f of degree k over GF(p). Because f is
primitive, x generates the multiplicative group, so ``exp[i] = x^i`` and its inverse
``log`` turn multiplication into addition of exponents. A primitive polynomial is
irreducible (if f factored, the unit group of GF(p)[x]/(f) would have fewer than q - 1
elements and x could not have order q - 1), so the tables describe a field.

Tables are built once per q and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np


def prime_power(n: int) -> tuple[int, int] | None:
    """Return ``(p, k)`` with ``n == p**k`` and p prime, or ``None`` if n is not a prime power.

    Args:
        n: Any integer.
    """
    if n < 2:
        return None
    for p in range(2, int(n**0.5) + 1):
        if n % p == 0:
            k = 0
            while n % p == 0:
                n //= p
                k += 1
            return (p, k) if n == 1 else None
    return (n, 1)


def is_prime_power(n: int) -> bool:
    """True when ``n = p**k`` for a prime p and k >= 1."""
    return prime_power(n) is not None


@dataclass(frozen=True)
class GF:
    """The field GF(q) as numpy lookup tables.

    Attributes:
        p: Characteristic (prime).
        k: Degree over GF(p); q = p**k.
        q: Field size.
        poly: Coefficients of the monic primitive polynomial, lowest degree first,
            length k + 1 (empty meaning for k = 1: ``(0, 1)``, i.e. f = x, unused).
        add: (q, q) int64, ``add[a, b] = a + b``.
        mul: (q, q) int64, ``mul[a, b] = a * b``.
        neg: (q,) int64, additive inverse.
        inv: (q,) int64, multiplicative inverse (``inv[0] = 0`` by convention).
        exp: (q - 1,) int64, ``exp[i] = g^i`` for the generator g (x, or a primitive root).
        log: (q,) int64, ``log[exp[i]] = i`` (``log[0] = -1``).
    """

    p: int
    k: int
    q: int
    poly: tuple[int, ...]
    add: np.ndarray
    mul: np.ndarray
    neg: np.ndarray
    inv: np.ndarray
    exp: np.ndarray
    log: np.ndarray


def _powers_of_x(p: int, poly: tuple[int, ...]) -> list[int] | None:
    """Powers x^0..x^(q-2) modulo ``poly`` as integers, or None if x is not primitive."""
    k = len(poly) - 1
    q = p**k
    coeffs = [1] + [0] * (k - 1)  # x^0
    out: list[int] = []
    for _ in range(q - 1):
        value = 0
        for c in reversed(coeffs):
            value = value * p + c
        if out and value == 1:
            return None  # order of x below q - 1
        out.append(value)
        top = coeffs[-1]  # multiply by x, then subtract top * f
        coeffs = [0] + coeffs[:-1]
        if top:
            coeffs = [(c - top * f) % p for c, f in zip(coeffs, poly[:-1])]
    return out if len(set(out)) == q - 1 else None


def find_primitive_poly(p: int, k: int) -> tuple[int, ...]:
    """Search the smallest monic primitive polynomial of degree k over GF(p).

    Candidates are tried in increasing order of their base-p value (constant term
    first digit); the first whose root x has multiplicative order p**k - 1 wins.

    Args:
        p: A prime.
        k: Degree >= 1.

    Returns:
        Coefficients lowest degree first, length k + 1, last one 1.
    """
    for code in range(1, p**k):
        low = [(code // p**i) % p for i in range(k)]
        if low[0] == 0:
            continue  # divisible by x
        poly = tuple(low) + (1,)
        if _powers_of_x(p, poly) is not None:
            return poly
    raise AssertionError(f"no primitive polynomial of degree {k} over GF({p})")  # pragma: no cover


def _primitive_root(p: int) -> int:
    """Smallest generator of the multiplicative group of GF(p), p prime."""
    factors = {f for f in range(2, p) if (p - 1) % f == 0 and prime_power(f) == (f, 1)}
    for g in range(1, p):
        if all(pow(g, (p - 1) // f, p) != 1 for f in factors):
            return g
    raise AssertionError("unreachable")  # pragma: no cover


@cache
def gf(q: int) -> GF:
    """Build (once, then cached) the tables of GF(q).

    Args:
        q: A prime power.

    Raises:
        ValueError: q is not a prime power.
    """
    pk = prime_power(q)
    if pk is None:
        raise ValueError(f"GF({q}) does not exist: {q} is not a prime power")
    p, k = pk
    if k == 1:
        g = _primitive_root(p)
        exp = np.array([pow(g, i, p) for i in range(p - 1)], dtype=np.int64)
        poly: tuple[int, ...] = ((-g) % p, 1)
        digits = np.arange(q, dtype=np.int64)[:, None]
    else:
        poly = find_primitive_poly(p, k)
        exp = np.array(_powers_of_x(p, poly), dtype=np.int64)
        digits = (np.arange(q, dtype=np.int64)[:, None] // p ** np.arange(k)) % p
    weights = p ** np.arange(k, dtype=np.int64)
    add = ((digits[:, None, :] + digits[None, :, :]) % p) @ weights
    neg = ((-digits) % p) @ weights
    log = np.full(q, -1, dtype=np.int64)
    log[exp] = np.arange(q - 1)
    la = log[1:]
    mul = np.zeros((q, q), dtype=np.int64)
    mul[1:, 1:] = exp[(la[:, None] + la[None, :]) % (q - 1)]
    inv = np.zeros(q, dtype=np.int64)
    inv[1:] = exp[(-la) % (q - 1)]
    for table in (add, mul, neg, inv, exp, log):
        table.setflags(write=False)
    return GF(p, k, q, poly, add, mul, neg, inv, exp, log)
