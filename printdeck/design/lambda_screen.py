"""The bit-parallel screen of :mod:`printdeck.design.verify` for λ = 1: which cards may
share other than one symbol with a later card, found with packed bit rows of M.T one column
block (``64 * _BLOCK_WORDS`` cards) and row chunk (``_CHUNK_CARDS`` cards) at a time; only
those cards are then counted exactly (:mod:`printdeck.design.gram`).
"""

from __future__ import annotations

import numpy as np

#: Bit-parallel screen: words (64 cards each) per column block, and cards per row chunk.
_BLOCK_WORDS = 32
_CHUNK_CARDS = 512


def _lambda_one_failures(
    flat: np.ndarray, sizes: np.ndarray, card_ptr: np.ndarray, pt_cards: np.ndarray, freq: np.ndarray, later: np.ndarray
) -> np.ndarray:
    """Cards i that may share other than one symbol with some later card j > i.

    Exact and bit-parallel: card i meets every later card exactly once iff the sets
    of later cards holding each of its symbols (a) together cover all cards i+1..b-1
    (bitwise OR of packed rows of M.T) and (b) have sizes adding up to b - 1 - i:
    then they are disjoint and cover, so each later card is met once. Pairs are
    checked once each (j > i), so only the upper triangle of the Gram matrix is done.
    M.T is packed one column block (``64 * _BLOCK_WORDS`` cards) at a time, so
    memory is (symbols x ``_BLOCK_WORDS``) words whatever the deck's size.

    Args:
        flat, sizes, card_ptr: Cards as concatenated symbols, sizes, offsets.
        pt_cards: Cards holding each symbol, grouped by symbol, ascending.
        freq: (symbols,) r_p.
        later: Per entry of ``flat``: cards after this one holding that symbol.

    Returns:
        (m,) int64 indices of cards failing the test (to be examined by counting).
    """
    b = len(sizes)
    per_entry = np.concatenate([[0], np.cumsum(later)])
    count_ok = per_entry[card_ptr[1:]] - per_entry[card_ptr[:-1]] == b - 1 - np.arange(b)
    grid = _padded(flat, sizes, card_ptr)
    pt_of = np.repeat(np.arange(len(freq), dtype=np.int64), freq)
    span = 64 * _BLOCK_WORDS
    cover_ok = np.ones(b, dtype=bool)
    for c0 in range(0, b, span):
        c1 = min(b, c0 + span)
        part = _column_block(pt_of, pt_cards, len(freq), c0, c1)
        for a in range(0, c1, _CHUNK_CARDS):  # rows at or after c1 need nothing from this block
            z = min(c1, a + _CHUNK_CARDS)
            cover_ok[a:z] &= _covers(part, grid[a:z], a, c0, c1)
    return np.flatnonzero(~(count_ok & cover_ok))


def _column_block(pt_of: np.ndarray, pt_cards: np.ndarray, n_points: int, c0: int, c1: int) -> np.ndarray:
    """(symbols, words) uint64: bit j - c0 of row p set when card j (c0 <= j < c1) holds p."""
    words = (c1 - c0 + 63) // 64
    keep = (pt_cards >= c0) & (pt_cards < c1)
    local = pt_cards[keep] - c0
    packed = np.zeros(n_points * words * 8, dtype=np.uint8)
    np.add.at(
        packed,
        pt_of[keep] * (words * 8) + local // 8,  # (point, card) pairs are unique: add = or
        np.left_shift(1, local % 8).astype(np.uint8),
    )
    return packed.view(np.uint64).reshape(n_points, words)


def _covers(part: np.ndarray, cols: np.ndarray, a: int, c0: int, c1: int) -> np.ndarray:
    """For cards a.. (their symbols ``cols``): do their symbols' cards cover every j in
    [c0, c1) with j > i? (bool per card)."""
    union = part[cols[:, 0]]
    tmp = np.empty_like(union)
    for pos in range(1, cols.shape[1]):  # OR in place, the chunk stays in cache
        np.take(part, cols[:, pos], axis=0, out=tmp)
        np.bitwise_or(union, tmp, out=union)
    j = c0 + np.arange(part.shape[1] * 64)
    need = (j[None, :] > np.arange(a, a + len(cols))[:, None]) & (j[None, :] < c1)
    need = np.packbits(need, axis=1, bitorder="little").view(np.uint64)
    covered: np.ndarray = ((union & need) == need).all(axis=1)
    return covered


def _padded(flat: np.ndarray, sizes: np.ndarray, card_ptr: np.ndarray) -> np.ndarray:
    """(cards, max size) int64 grid of symbols; shorter cards repeat their first symbol
    (harmless for a bitwise OR). Every card must have a symbol."""
    b, width = len(sizes), int(sizes.max())
    if np.all(sizes == width):
        return flat.reshape(b, width)
    grid = np.repeat(flat[card_ptr[:-1]][:, None], width, axis=1)
    col = np.arange(flat.size) - np.repeat(card_ptr[:-1], sizes)
    grid[np.repeat(np.arange(b), sizes), col] = flat
    return grid
