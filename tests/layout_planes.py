"""A tiny prime-order projective plane for the layout tests and benchmark only.

Points (x, y) of Z_q^2 plus the q + 1 directions at infinity; lines y = m x + b,
x = c, and the line at infinity (the classical affine-plane completion).
"""

from __future__ import annotations


def prime_plane(q: int) -> list[list[int]]:
    """Return the q^2 + q + 1 cards (symbol indices) of the plane of prime order q."""
    def pt(x: int, y: int) -> int:
        return x * q + y

    inf = q * q
    cards = [[pt(x, (m * x + b) % q) for x in range(q)] + [inf + m] for m in range(q) for b in range(q)]
    cards += [[pt(c, y) for y in range(q)] + [inf + q] for c in range(q)]
    cards.append([inf + m for m in range(q + 1)])
    return cards
