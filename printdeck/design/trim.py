"""Trimming a deck to fewer cards while keeping symbol frequencies even.

Rule (greedy, deterministic): while the deck has more cards than wanted, remove the
card whose removal leaves (1) the lowest maximum symbol frequency, then (2) the lowest
sum of squared frequencies (the most even spread), then (3) the lowest card index.
Removing a card never breaks "every two cards share exactly λ", so any subset of a
valid deck is valid.

For the order-7 plane (57 cards, every symbol on 8) trimmed to 55: two cards go; any
two cards of a plane share one symbol, so the result is always one symbol on 6 cards,
14 on 7 and 42 on 8 -- the most even possible.
"""

from __future__ import annotations

import numpy as np


def trim_order(blocks: np.ndarray, n_points: int, cards: int) -> np.ndarray:
    """Indices of the cards kept, in their original order.

    Args:
        blocks: (b, k) int64 card symbols.
        n_points: Number of symbols v (columns of the incidence matrix).
        cards: How many cards to keep, 0 < cards <= b.

    Returns:
        (cards,) int64 increasing card indices.
    """
    b = len(blocks)
    if cards >= b:
        return np.arange(b)
    flat = blocks.ravel()
    freq = np.bincount(flat, minlength=n_points)
    by_point = np.argsort(flat, kind="stable")
    pt_cards = by_point // blocks.shape[1]  # cards holding each symbol, grouped by symbol
    pt_ptr = np.concatenate([[0], np.cumsum(freq)])
    gain = (2 * freq - 1)[blocks].sum(axis=1)  # sum of squares drops by this if the card goes
    alive = np.ones(b, dtype=bool)
    top, top_count, n_top = _top(freq, blocks)
    for _ in range(b - cards):
        # after removing card c the max drops only if c holds every symbol at the top
        new_max = np.where(top_count == n_top, top - 1, top)
        key = new_max.astype(np.float64) * 1e12 - gain
        key[~alive] = np.inf
        c = int(np.argmin(key))  # argmin returns the lowest index among ties
        alive[c] = False
        for p in blocks[c]:
            holders = pt_cards[pt_ptr[p] : pt_ptr[p + 1]]
            gain[holders] -= 2  # (2 f - 1) falls by 2 for every card holding p
            if freq[p] == top:
                top_count[holders] -= 1
                n_top -= 1
            freq[p] -= 1
        if n_top == 0:
            top, top_count, n_top = _top(freq, blocks)
    return np.flatnonzero(alive)


def _top(freq: np.ndarray, blocks: np.ndarray) -> tuple[int, np.ndarray, int]:
    """(max frequency, per card how many of its symbols are at it, how many symbols are)."""
    top = int(freq.max())
    at_top = freq == top
    return top, at_top[blocks].sum(axis=1), int(at_top.sum())


def drop_unused(blocks: list[tuple[int, ...]], n_points: int) -> tuple[list[tuple[int, ...]], int]:
    """Renumber symbols 0..m-1 keeping only those some card uses (order preserved).

    Returns:
        (renumbered blocks, m).
    """
    used = sorted({p for blk in blocks for p in blk})
    new = {p: i for i, p in enumerate(used)}
    return [tuple(new[p] for p in blk) for blk in blocks], len(used)
