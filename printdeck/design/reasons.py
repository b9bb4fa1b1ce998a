"""Why a design does not exist (or is not known), as a clause naming the theorem.

Planes of order n (k = n + 1 symbols a card):

* every prime power n has one (Veblen & Bussey 1906, PG(2, n));
* Bruck & Ryser (1949): if n = 1 or 2 (mod 4) and n is not a sum of two squares,
  there is none (6, 14, 21, 22, 30, ...);
* Lam, Thiel & Swiercz (1989): there is none of order 10 (computer search);
* otherwise (12, 15, 18, 20, 24, ...) the question is open.

Biplanes (λ = 2, v = 1 + k(k-1)/2, order n = k - 2): known only for k = 3, 4, 5, 6,
9, 11, 13. For even v the order must be a square (Schützenberger 1949, the even case of
the Bruck–Ryser–Chowla theorem): that rules out k = 7, 10, 14, ...; for odd v, the
theorem (Chowla & Ryser 1950) rules out k = 8 and 12.
"""

from __future__ import annotations

from math import isqrt


def sum_of_two_squares(n: int) -> bool:
    """True when n = a^2 + b^2 for integers a, b >= 0."""
    return any(isqrt(n - a * a) ** 2 == n - a * a for a in range(isqrt(n) + 1))


def plane_status(n: int) -> str:
    """Why there is no known plane of order n (n not a prime power), as a clause."""
    if n == 10:
        return "no projective plane of order 10 exists (Lam, Thiel & Swiercz 1989, exhaustive computer search)"
    if n % 4 in (1, 2) and not sum_of_two_squares(n):
        return (
            f"no projective plane of order {n} exists (Bruck–Ryser theorem 1949: "
            f"{n} is 1 or 2 mod 4 and not a sum of two squares)"
        )
    extra = " (the smallest open case)" if n == 12 else ""
    return (
        f"no projective plane of order {n} is known: {n} is not a prime power and "
        f"whether one exists is an open problem{extra}"
    )


BRC_ODD_CARDS = (8, 12)
"""Symbols a card of the biplanes with an odd number of cards that the Bruck–Ryser–Chowla
theorem rules out (below the largest known, 13)."""


def biplane_status(k: int) -> str:
    """Why there is no known biplane with k symbols a card (k not a known size), as a clause.
    Every deck of an even number of cards whose order is not a square gets the one reason
    (k = 7 and 10 were said to be ruled out by Bruck–Ryser–Chowla, 14 by Schützenberger)."""
    v = 1 + k * (k - 1) // 2
    n = k - 2
    if v % 2 == 0 and isqrt(n) ** 2 != n:
        return (
            f"no biplane with {k} symbols a card exists ({v} cards is even, so the order {n} would "
            "have to be a square; Schützenberger 1949, the even case of the Bruck–Ryser–Chowla theorem)"
        )
    if k in BRC_ODD_CARDS:
        return f"no biplane with {k} symbols a card exists (Bruck–Ryser–Chowla theorem 1950, order {n})"
    return f"no biplane with {k} symbols a card is known (the largest known has 13)"
