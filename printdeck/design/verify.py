"""Independent check of a deck: every two cards share exactly λ symbols.

The check works on the incidence matrix M (cards x symbols, 0/1): the Gram matrix
G = M @ M.T holds, at (i, j), the number of symbols cards i and j share, and on its
diagonal each card's size. M is sparse (k ones a row), so G is computed in row chunks
as sparse products with ``numpy.bincount``: for a chunk of cards, every symbol of a card
contributes +1 to each card holding that symbol. That is sum_p r_p^2 additions
(r_p = cards holding symbol p) instead of cards^2 * symbols for a dense product.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

#: How many wrong pairs a report keeps (the count is always exact).
MAX_LISTED_PAIRS = 1000
#: Target number of bincount slots per chunk (bounds memory to ~8 bytes each).
_CHUNK_SLOTS = 1 << 22
#: Bit-parallel screen: words (64 cards each) per column block, and cards per row chunk.
_BLOCK_WORDS = 32
_CHUNK_CARDS = 512


@dataclass(frozen=True)
class VerifyReport:
    """What :func:`verify_blocks` found.

    Attributes:
        cards: Number of cards.
        symbols: Number of symbols (max symbol number + 1; unused numbers included).
        lam: λ that was checked.
        card_sizes: (cards,) int64, symbols on each card (duplicates counted once).
        frequencies: (symbols,) int64, cards each symbol is on.
        bad_pair_count: Pairs of cards sharing a number of symbols other than λ.
        bad_pairs: Up to :data:`MAX_LISTED_PAIRS` of them as (card_i, card_j, shared), i < j.
        duplicate_cards: Cards listing a symbol more than once, as card indices.
    """

    cards: int
    symbols: int
    lam: int
    card_sizes: np.ndarray
    frequencies: np.ndarray
    bad_pair_count: int
    bad_pairs: tuple[tuple[int, int, int], ...]
    duplicate_cards: tuple[int, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when every pair shares exactly λ and no card repeats a symbol."""
        return self.bad_pair_count == 0 and not self.duplicate_cards and self.cards > 0

    def summary(self) -> str:
        """Multi-line human summary (used by ``printdeck verify``)."""
        sizes = np.unique(self.card_sizes)
        freq = self.frequencies
        used = freq[freq > 0]
        lines = [
            f"cards: {self.cards}",
            f"symbols: {self.symbols} ({int((freq == 0).sum())} unused)",
            "symbols per card: " + ", ".join(
                f"{int(s)} ({int((self.card_sizes == s).sum())} cards)" for s in sizes),
            "symbol frequencies: " + (", ".join(
                f"{int(f)}x{int((used == f).sum())}" for f in np.unique(used)) or "none"),
            f"pairs sharing other than {self.lam}: {self.bad_pair_count}",
        ]
        for i, j, s in self.bad_pairs:
            lines.append(f"  cards {i} and {j} share {s} symbols")
        if self.bad_pair_count > len(self.bad_pairs):
            lines.append(f"  ... and {self.bad_pair_count - len(self.bad_pairs)} more")
        for c in self.duplicate_cards:
            lines.append(f"  card {c} lists a symbol twice")
        lines.append(f"OK: every two cards share exactly {self.lam}" if self.ok else "FAILED")
        return "\n".join(lines)


def incidence_matrix(blocks: Sequence[Sequence[int]] | np.ndarray, n_points: int | None = None) -> np.ndarray:
    """Cards x symbols 0/1 matrix.

    Args:
        blocks: Each card's symbol numbers (>= 0).
        n_points: Number of columns; default max symbol + 1.

    Returns:
        (cards, points) bool.
    """
    flat, sizes = _flatten(blocks)
    n = int(flat.max()) + 1 if n_points is None and flat.size else (n_points or 0)
    m = np.zeros((len(sizes), n), dtype=bool)
    m[np.repeat(np.arange(len(sizes)), sizes), flat] = True
    return m


def _flatten(blocks: Sequence[Sequence[int]] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated symbols (int64) and per-card lengths."""
    if isinstance(blocks, np.ndarray) and blocks.ndim == 2:
        return blocks.astype(np.int64).ravel(), np.full(len(blocks), blocks.shape[1], dtype=np.int64)
    sizes = np.fromiter((len(b) for b in blocks), dtype=np.int64, count=len(blocks))
    flat = np.fromiter((x for b in blocks for x in b), dtype=np.int64, count=int(sizes.sum()))
    return flat, sizes


def _dedupe(flat: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """Drop repeated symbols within a card; return cards that had repeats."""
    if sizes.size and np.all(sizes == sizes[0]) and sizes[0] > 0:
        grid = flat.reshape(len(sizes), int(sizes[0]))
        if np.all(grid[:, 1:] > grid[:, :-1]):  # rows strictly increasing: no repeats
            return flat, sizes, ()
    rows = np.repeat(np.arange(len(sizes)), sizes)
    n = int(flat.max()) + 1 if flat.size else 1
    key = rows * n + flat
    order = np.argsort(key, kind="stable")
    key = key[order]
    keep = np.ones(key.size, dtype=bool)
    keep[1:] = key[1:] != key[:-1]
    if keep.all():
        return flat, sizes, ()
    dup_rows = tuple(int(r) for r in np.unique(rows[order][~keep]))
    key = key[keep]
    rows, flat = key // n, key % n
    return flat, np.bincount(rows, minlength=len(sizes)), dup_rows


def verify_blocks(blocks: Sequence[Sequence[int]] | np.ndarray, lam: int = 1) -> VerifyReport:
    """Check that every two cards share exactly ``lam`` symbols, exhaustively.

    Args:
        blocks: Each card's symbol numbers (ints >= 0); a (cards, k) int array is fastest.
        lam: λ, the number of symbols every two cards must share (1 or 2).

    Returns:
        The report; ``report.ok`` is the verdict.

    Raises:
        ValueError: A symbol number is negative.
    """
    flat, sizes = _flatten(blocks)
    if flat.size and flat.min() < 0:
        raise ValueError("symbol numbers must be >= 0")
    flat, sizes, dups = _dedupe(flat, sizes)
    b = len(sizes)
    v = int(flat.max()) + 1 if flat.size else 0
    card_ptr = np.concatenate([[0], np.cumsum(sizes)])
    rows_of = np.repeat(np.arange(b, dtype=np.int64), sizes)
    freq = np.bincount(flat, minlength=v)
    small = flat.astype(np.int16) if v < (1 << 15) else flat  # 16-bit keys: numpy radix sort
    by_point = np.argsort(small, kind="stable")
    pt_cards = rows_of[by_point]  # cards holding each point, grouped by point
    pt_ptr = np.concatenate([[0], np.cumsum(freq)])
    suspects = np.arange(b)
    if lam == 1 and b > 1 and sizes.min() > 0:  # bit-parallel screen (empty cards: count all)
        rank = np.empty(flat.size, dtype=np.int64)
        rank[by_point] = np.arange(flat.size)
        later = freq[flat] - 1 - (rank - pt_ptr[flat])
        suspects = _lambda_one_failures(flat, sizes, card_ptr, pt_cards, freq, later)
    bad_count, bad = 0, []
    chunk = max(1, min(b, _CHUNK_SLOTS // max(b, 1)))
    for start in range(0, len(suspects), chunk):
        rows = suspects[start:start + chunk]
        pts = np.concatenate([flat[card_ptr[r]:card_ptr[r + 1]] for r in rows])
        counts = _gram_rows(pts, sizes[rows], pt_ptr, pt_cards, freq, b)
        counts[np.arange(len(rows)), rows] = lam  # diagonal is the card size
        wrong = np.argwhere(counts != lam)
        wrong = wrong[rows[wrong[:, 0]] < wrong[:, 1]]
        bad_count += len(wrong)
        for i, j in wrong[: max(0, MAX_LISTED_PAIRS - len(bad))]:
            bad.append((int(rows[i]), int(j), int(counts[i, j])))
    return VerifyReport(b, v, lam, sizes, freq, bad_count, tuple(bad), dups)


def _lambda_one_failures(flat: np.ndarray, sizes: np.ndarray, card_ptr: np.ndarray, pt_cards: np.ndarray,
                         freq: np.ndarray, later: np.ndarray) -> np.ndarray:
    """Cards i that may share other than one symbol with some later card j > i.

    Exact and bit-parallel: card i meets every later card exactly once iff the sets
    of later cards holding each of its symbols (a) together cover all cards i+1..b-1
    (bitwise OR of packed rows of M.T) and (b) have sizes adding up to b - 1 - i:
    then they are disjoint and cover, so each later card is met once. Pairs are
    checked once each (j > i), so only the upper triangle of the Gram matrix is done.

    Args:
        flat, sizes, card_ptr: Cards as concatenated symbols, sizes, offsets.
        pt_cards: Cards holding each symbol, grouped by symbol, ascending.
        freq: (symbols,) r_p.
        later: Per entry of ``flat``: cards after this one holding that symbol.

    Returns:
        (m,) int64 indices of cards failing the test (to be examined by counting).
    """
    b = len(sizes)
    words = (b + 63) // 64
    pt_of = np.repeat(np.arange(len(freq), dtype=np.int64), freq)
    byte = pt_of * (words * 8) + pt_cards // 8
    packed = np.bincount(byte, weights=np.left_shift(1, pt_cards % 8), minlength=len(freq) * words * 8)
    rows_t = packed.astype(np.uint8).view(np.uint64).reshape(len(freq), words)
    count_ok = np.add.reduceat(later, card_ptr[:-1]) == b - 1 - np.arange(b)
    grid = _padded(flat, sizes, card_ptr)
    # column blocks of _BLOCK_WORDS words, each contiguous, so gathered rows are short
    bw = _BLOCK_WORDS
    blocks = [np.ascontiguousarray(rows_t[:, w:w + bw]) for w in range(0, words, bw)]
    cover_ok = np.ones(b, dtype=bool)

    def cover(a: int, z: int) -> None:
        cols = grid[a:z]
        for nb in range(a // (64 * bw), len(blocks)):
            part = blocks[nb]
            union = part[cols[:, 0]]
            tmp = np.empty_like(union)
            for pos in range(1, cols.shape[1]):  # OR in place, the chunk stays in cache
                np.take(part, cols[:, pos], axis=0, out=tmp)
                np.bitwise_or(union, tmp, out=union)
            j = nb * 64 * bw + np.arange(part.shape[1] * 64)
            need = (j[None, :] > np.arange(a, z)[:, None]) & (j[None, :] < b)
            need = np.packbits(need, axis=1, bitorder="little").view(np.uint64)
            cover_ok[a:z] &= ((union & need) == need).all(axis=1)

    for a in range(0, b, _CHUNK_CARDS):
        cover(a, min(b, a + _CHUNK_CARDS))
    return np.flatnonzero(~(count_ok & cover_ok))


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


def _gram_rows(points: np.ndarray, sizes: np.ndarray, pt_ptr: np.ndarray, pt_cards: np.ndarray,
               freq: np.ndarray, n_cards: int) -> np.ndarray:
    """Rows of G = M @ M.T for a chunk of cards.

    Args:
        points: Concatenated symbols of the chunk's cards.
        sizes: (c,) their card sizes.
        pt_ptr, pt_cards: Cards holding point p are ``pt_cards[pt_ptr[p]:pt_ptr[p+1]]``.
        freq: (points,) r_p.
        n_cards: Total cards (row length).

    Returns:
        (c, n_cards) int64 shared-symbol counts.
    """
    c = len(sizes)
    lengths = freq[points]
    total = int(lengths.sum())
    seg_start = np.repeat(pt_ptr[points] - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    other = pt_cards[seg_start + np.arange(total)]
    row = np.repeat(np.repeat(np.arange(c, dtype=np.int64), sizes), lengths)
    return np.bincount(row * n_cards + other, minlength=c * n_cards).reshape(c, n_cards)


def verify_difference_set(base: Sequence[int], v: int, lam: int) -> bool:
    """True when ``base`` is a (v, k, λ) difference set in Z_v: every non-zero residue
    is a difference of exactly λ ordered pairs of ``base``. O(k^2)."""
    d = np.asarray(base, dtype=np.int64)
    diff = (d[:, None] - d[None, :]) % v
    counts = np.bincount(diff[~np.eye(len(d), dtype=bool)], minlength=v)
    return bool(np.all(counts[1:] == lam)) and len(set(d.tolist() if d.size else [])) == len(d)
