"""Why a design does not exist (or is not known), and what exists nearby.

Planes of order n (k = n + 1 symbols a card):

* every prime power n has one (Veblen & Bussey 1906, PG(2, n));
* Bruck & Ryser (1949): if n = 1 or 2 (mod 4) and n is not a sum of two squares,
  there is none (6, 14, 21, 22, 30, ...);
* Lam, Thiel & Swiercz (1989): there is none of order 10 (computer search);
* otherwise (12, 15, 18, 20, 24, ...) the question is open.

Biplanes (λ = 2, v = 1 + k(k-1)/2, order n = k - 2): known only for k = 3, 4, 5, 6,
9, 11, 13. Bruck–Ryser–Chowla (Chowla & Ryser 1950) rules out k = 7, 8, 10, 12; for
even v the order must be a square (Schützenberger 1949).
"""

from __future__ import annotations

from math import isqrt

from printdeck.design.gf import is_prime_power


def sum_of_two_squares(n: int) -> bool:
    """True when n = a^2 + b^2 for integers a, b >= 0."""
    return any(isqrt(n - a * a) ** 2 == n - a * a for a in range(isqrt(n) + 1))


def plane_status(n: int) -> str:
    """Why there is no known plane of order n (n not a prime power), as a clause."""
    if n == 10:
        return "no projective plane of order 10 exists (Lam, Thiel & Swiercz 1989, exhaustive computer search)"
    if n % 4 in (1, 2) and not sum_of_two_squares(n):
        return (f"no projective plane of order {n} exists (Bruck–Ryser theorem 1949: "
                f"{n} is 1 or 2 mod 4 and not a sum of two squares)")
    extra = " (the smallest open case)" if n == 12 else ""
    return (f"no projective plane of order {n} is known: {n} is not a prime power and "
            f"whether one exists is an open problem{extra}")


def nearest_planes(k: int) -> str:
    """'6 (order 5, 31 cards) or 8 (order 7, 57 cards)': the closest k that have planes."""
    lower = next((m for m in range(k - 1, 2, -1) if is_prime_power(m - 1)), None)
    upper = next(m for m in range(k + 1, 2 * k + 3) if is_prime_power(m - 1))
    parts = [f"{m} (order {m - 1}, {(m - 1) ** 2 + m} cards)" for m in (lower, upper) if m]
    return " or ".join(parts)


def plane_refusal(k: int) -> str:
    """The one-line refusal for symbols_per_card = k, match 1."""
    return (f"deck.symbols_per_card: {k} symbols a card needs a projective plane of order {k - 1}, "
            f"but {plane_status(k - 1)}; use {nearest_planes(k)} symbols a card, "
            f"or set search: true (--search) for the largest partial deck printdeck can build")


def biplane_refusal(k: int) -> str:
    """The one-line refusal for symbols_per_card = k, match 2."""
    known = "3, 4, 5, 6, 9, 11 or 13"
    v = 1 + k * (k - 1) // 2
    n = k - 2
    if k in (7, 8, 10, 12):
        why = f"no biplane with {k} symbols a card exists (Bruck–Ryser–Chowla theorem 1950, order {n})"
    elif v % 2 == 0 and isqrt(n) ** 2 != n:
        why = (f"no biplane with {k} symbols a card exists ({v} cards is even, so the order {n} "
               f"would have to be a square; Schützenberger 1949)")
    else:
        why = f"no biplane with {k} symbols a card is known (the largest known has 13)"
    lower = max((m for m in (3, 4, 5, 6, 9, 11, 13) if m < k), default=None)
    upper = min((m for m in (3, 4, 5, 6, 9, 11, 13) if m > k), default=None)
    near = " or ".join(str(m) for m in (lower, upper) if m)
    return (f"deck.symbols_per_card: {why}; with match: 2 use {near} symbols a card "
            f"(biplanes exist for {known}), or match: 1")
