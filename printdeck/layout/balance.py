"""Which symbol goes on which point: spread hard-to-pack artwork evenly over the cards.

Any one-to-one relabelling of a design's points keeps its property (every two cards
share exactly one symbol), so the build is free to choose which symbol sits on which
point. A card that gathers several spindly symbols (a snowflake, a spider, a hammer,
a wrench) packs sparsely however well it is laid out, because such artwork covers
little of the space it claims. The deck is balanced instead: each symbol gets a
*solidity*, its ink area over the area of its convex hull (1 for a disc or a bar,
about 0.3 for a word, under 0.2 for a hairline ring), and symbols are swapped to lift
the least solid cards (see :func:`balance_points`). Measured on the default theme and
the awkward test theme, a card's mean solidity correlates 0.64 to 0.74 with the
coverage its layout reaches.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import shapely

from printdeck.layout.silhouette import Silhouette, silhouette
from printdeck.model import SymbolSpec

MAX_SWAPS = 400     # local search budget (swaps made); each swap strictly improves the objective
TEMPERATURE = 0.02  # softness of the soft minimum of card scores (see balance_points)
WORST_CARDS = 3     # swaps considered move a point of one of this many lowest cards


def solidity(sil: Silhouette) -> float:
    """Ink area over the convex hull's area of a silhouette, in (0, 1]."""
    hull = float(shapely.convex_hull(sil.shape).area)
    return min(1.0, sil.area / hull) if hull > 0 else 1.0


def balance_symbols(blocks: Sequence[Sequence[int]], symbols: Sequence[SymbolSpec]) -> list[SymbolSpec]:
    """Reassign the symbols to the points so every card gets a fair share of solid artwork.

    Args:
        blocks: The design's cards, each a sequence of point indices in ``[0, len(symbols))``.
        symbols: ``symbols[p]`` is the symbol on point p (``symbols[p].id == p``).

    Returns:
        The same symbols in a new order, indexed by point (ids renumbered to the points).
        Deterministic: depends only on the blocks and the symbols' artwork (see
        :func:`balance_points`).
    """
    scores = np.array([solidity(silhouette(s)) for s in symbols])
    perm = balance_points(blocks, scores)
    return [dataclasses.replace(symbols[int(j)], id=p) for p, j in enumerate(perm)]


def balance_points(blocks: Sequence[Sequence[int]], scores: np.ndarray) -> np.ndarray:
    """Find a relabelling of the points that lifts the cards with the lowest mean score.

    A card's score is the mean of its points' ``scores``. The objective is a soft
    minimum, ``sum(exp(-card_score / TEMPERATURE))`` (lower is better), which lifts the
    worst card and the cards near it. (For a whole projective plane the variance of the
    card scores is the same for every relabelling, since any two points share exactly
    one card, so only the low tail can be improved.) Greedy local search: the swap of
    two points' scores that lowers the objective most is made, up to
    :data:`MAX_SWAPS` times, among swaps that move a point of the
    :data:`WORST_CARDS` lowest cards.

    Args:
        blocks: ``(b, k)`` point indices of each card.
        scores: ``(n,)`` score of the symbol that starts on each point.

    Returns:
        ``(n,) int`` ``perm`` such that point p gets the symbol that started on point ``perm[p]``.
    """
    n = len(scores)
    inc = np.zeros((len(blocks), n))
    for c, block in enumerate(blocks):
        inc[c, list(block)] = 1.0 / len(block)
    perm = np.arange(n)
    s = np.asarray(scores, dtype=float).copy()
    for _ in range(MAX_SWAPS):
        best = _best_swap(inc, s)
        if best is None:
            break
        p, q = best
        s[[p, q]] = s[[q, p]]
        perm[[p, q]] = perm[[q, p]]
    return perm


def _penalty(card: np.ndarray) -> np.ndarray:
    """Soft minimum of card scores ``(b, ...)`` over axis 0 (lower is better)."""
    return np.exp(-card / TEMPERATURE).sum(axis=0)


def _best_swap(inc: np.ndarray, s: np.ndarray) -> tuple[int, int] | None:
    """The swap ``(p, q)`` that lowers :func:`_penalty` most, or None if none lowers it."""
    card = inc @ s
    now = float(_penalty(card))
    best: tuple[float, int, int] | None = None
    points = np.nonzero(inc[np.argsort(card, kind="stable")[:WORST_CARDS]].any(axis=0))[0]
    for p in points:
        diff = s - s[p]  # (n,) score change at p if swapped with q
        new = card[:, None] + (inc[:, [p]] - inc) * diff[None, :]  # (b, n) card scores after p <-> q
        pen = _penalty(new)
        pen[p] = np.inf
        q = int(np.argmin(pen))
        if pen[q] < now * (1 - 1e-9) and (best is None or pen[q] < best[0]):
            best = (float(pen[q]), int(p), q)
    return None if best is None else (best[1], best[2])
