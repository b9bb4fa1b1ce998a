"""The exact count of :mod:`printdeck.design.verify`: rows of the Gram matrix G = M @ M.T
(how many symbols two cards share) for chunks of cards, as sparse products with
``numpy.bincount``, in row chunks of about ``_CHUNK_SLOTS`` card pairs and batches of about
``_WORK_SLOTS`` symbol incidences, so memory stays bounded whatever the deck.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

#: Target number of bincount slots per chunk (bounds memory to ~8 bytes each).
_CHUNK_SLOTS = 1 << 22
#: Target number of symbol incidences expanded at a time by the exact count.
_WORK_SLOTS = 1 << 22


@dataclass(frozen=True)
class _Incidence:
    """A deck both ways: cards as symbol lists (``flat``/``card_ptr``) and symbols as
    card lists (``pt_cards``/``pt_ptr``), with ``sizes`` and ``freq`` (r_p)."""

    flat: np.ndarray
    sizes: np.ndarray
    card_ptr: np.ndarray
    pt_ptr: np.ndarray
    pt_cards: np.ndarray
    freq: np.ndarray


def _row_chunks(graph: _Incidence, rows: np.ndarray) -> Iterator[np.ndarray]:
    """``rows`` in consecutive chunks of at most ``_CHUNK_SLOTS / cards`` cards and about
    ``_WORK_SLOTS`` symbol incidences (one card at least)."""
    b = max(len(graph.sizes), 1)
    per_point = np.concatenate([[0], np.cumsum(graph.freq[graph.flat])])
    work = per_point[graph.card_ptr[rows + 1]] - per_point[graph.card_ptr[rows]]
    most = max(1, _CHUNK_SLOTS // b)
    start, total = 0, 0
    for end, w in enumerate(work.tolist()):
        if end > start and (end - start >= most or total + w > _WORK_SLOTS):
            yield rows[start:end]
            start, total = end, 0
        total += w
    if start < len(rows):
        yield rows[start:]


def _gram_chunk(graph: _Incidence, rows: np.ndarray) -> np.ndarray:
    """(len(rows), cards) int64: symbols each card of ``rows`` shares with every card,
    summed over batches of about ``_WORK_SLOTS`` incidences (bounded memory)."""
    b, c = len(graph.sizes), len(rows)
    pts = np.concatenate([graph.flat[graph.card_ptr[r] : graph.card_ptr[r + 1]] for r in rows])
    local = np.repeat(np.arange(c, dtype=np.int64), graph.sizes[rows])
    counts = np.zeros((c, b), dtype=np.int64)
    for lo, hi in _batches(graph.freq[pts]):
        first, last = int(local[lo]), int(local[hi - 1]) + 1
        per_row = np.bincount(local[lo:hi] - first, minlength=last - first)
        counts[first:last] += _gram_rows(pts[lo:hi], per_row, graph.pt_ptr, graph.pt_cards, graph.freq, b)
    return counts


def _batches(lengths: np.ndarray) -> Iterator[tuple[int, int]]:
    """Consecutive ranges [lo, hi) of entries whose ``lengths`` add up to about
    ``_WORK_SLOTS`` (one entry at least)."""
    ends = np.cumsum(lengths)
    marks = np.arange(_WORK_SLOTS, int(ends[-1]) if ends.size else 0, _WORK_SLOTS)
    cuts = sorted({int(x) for x in np.searchsorted(ends, marks, side="right")} - {0, len(lengths)})
    bounds = [0, *cuts, len(lengths)]
    for lo, hi in itertools.pairwise(bounds):
        if hi > lo:
            yield lo, hi


def _gram_rows(
    points: np.ndarray, sizes: np.ndarray, pt_ptr: np.ndarray, pt_cards: np.ndarray, freq: np.ndarray, n_cards: int
) -> np.ndarray:
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
