"""Which symbol goes on which point: spread hard-to-pack artwork evenly over the cards.

Any one-to-one relabelling of a design's points keeps its property (every two cards
share exactly one symbol), so the build is free to choose which symbol sits on which
point. A card that gathers several spindly symbols (a snowflake, a spider, a hammer,
a wrench) packs sparsely however well it is laid out, because such artwork covers
little of the space it claims. The deck is balanced instead: each symbol gets a
*solidity*, its ink area over the area of its convex hull (1 for a disc or a bar,
about 0.3 for a word, under 0.2 for a hairline ring), and symbols are swapped to lift
the least solid cards (see :func:`balance_points`): a card's mean solidity goes
with the coverage its layout reaches (figures in bench/RESULTS.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import shapely

from printdeck.artwork import Silhouette, silhouette, silhouette_stored, silhouettes
from printdeck.design import incidence_matrix
from printdeck.model import SymbolSpec

MAX_SWAPS = 400  # local search budget (swaps made); each swap strictly improves the objective
TEMPERATURE = 0.02  # softness of the soft minimum of card scores (see balance_points)
WORST_CARDS = 3  # swaps considered move a point of one of this many lowest cards


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
    scores = np.array([solidity(sil) for sil in _silhouettes(symbols)])
    perm = balance_points(blocks, scores)
    return [dataclasses.replace(symbols[int(j)], id=p) for p, j in enumerate(perm)]


def _silhouettes(symbols: Sequence[SymbolSpec]) -> list[Silhouette]:
    """The silhouettes of ``symbols`` (in order): those in the disk cache read in this
    thread, the others traced on threads (:func:`~printdeck.artwork.silhouettes`). Reading a
    stored one is mostly Python, which threads only slow down as they take turns at the
    GIL; tracing is mostly native code that releases it."""
    unique = list(dict.fromkeys(symbols))
    known = {s: silhouette(s) for s in unique if silhouette_stored(s)}
    missing = [s for s in unique if s not in known]
    known.update(zip(missing, silhouettes(missing)))
    return [known[s] for s in symbols]


def balance_points(blocks: Sequence[Sequence[int]], scores: np.ndarray) -> np.ndarray:
    """Find a relabelling of the points that lifts the cards with the lowest mean score.

    A card's score is the mean of its points' ``scores``. The objective is a soft
    minimum, ``sum(exp(-card_score / TEMPERATURE))`` (lower is better), which lifts the
    worst card and the cards near it. (For a whole projective plane the variance of the
    card scores is the same for every relabelling, since any two points share exactly
    one card, so only the low tail can be improved.) Greedy local search: the swap of
    two points' scores that lowers the objective most is made, up to
    :data:`MAX_SWAPS` times, among swaps that move a point of the
    :data:`WORST_CARDS` lowest cards. A point on no card (a trimmed deck's) is never
    swapped: which symbols a deck leaves out is the assignment's choice, not the
    balance's, so ``printdeck check`` names them without tracing any artwork.

    Each candidate swap is scored from the cards it touches only (the ``k`` cards
    through each of the two points), so one step costs ``O(WORST_CARDS * k^2 * n)``.

    Args:
        blocks: ``(b, k)`` point indices of each card (every card has k points).
        scores: ``(n,)`` score of the symbol that starts on each point.

    Returns:
        ``(n,) int`` ``perm`` such that point p gets the symbol that started on point ``perm[p]``.

    Raises:
        ValueError: The cards do not all have the same number of points.
    """
    n, k = len(scores), len(blocks[0])
    if any(len(block) != k for block in blocks):
        raise ValueError("balance_points: every card must have the same number of points")
    member = incidence_matrix(blocks, n)
    off_cards = np.asarray(member.sum(axis=0) == 0)  # (n,) bool: the points on no card
    common = shared_cards(member, k)
    perm = np.arange(n)
    s = np.asarray(scores, dtype=float).copy()
    for _ in range(MAX_SWAPS):
        best = _best_swap(member, s, k, off_cards, common)
        if best is None:
            break
        p, q = best
        s[[p, q]] = s[[q, p]]
        perm[[p, q]] = perm[[q, p]]
    return perm


def card_weights(member: np.ndarray, s: np.ndarray, k: int) -> np.ndarray:
    """``(b,)`` each card's term of the soft-minimum penalty, ``exp(-card_score / T)``,
    scaled by one positive factor (so the lowest card's term is 1)."""
    card = member @ s / k
    return np.exp(-(card - card.min()) / TEMPERATURE)


def swap_changes(
    member: np.ndarray, s: np.ndarray, k: int, p: int, e: np.ndarray, e_by_point: np.ndarray | None = None
) -> np.ndarray:
    """Change of the soft-minimum penalty if the scores of point p and each point q are exchanged.

    Only the cards through p or q (not both) change, by ``+-(s[q] - s[p]) / k``.

    Args:
        member: ``(b, n) bool`` incidence matrix (card c holds point q).
        s: ``(n,)`` current scores.
        k: Points per card.
        p: The point to move.
        e: ``(b,)`` the cards' penalty terms (:func:`card_weights`).
        e_by_point: ``(n,)`` ``e @ member``, the terms of the cards through each point
            (pass it when scoring many p against the same ``e``; computed if None).

    Returns:
        ``(n,)`` the penalty's change for every q, in the units of ``e``; ``inf`` at p.
    """
    return swap_changes_many(member, s, k, np.array([p]), e, e_by_point)[0]


def shared_cards(member: np.ndarray, k: int) -> np.ndarray | None:
    """``(n, n) int`` the card through both points p and q (``b``, the number of cards,
    where none is; the diagonal is any card), or None when two points share more than
    one card (a design other than a plane's, which shares at most one).

    Args:
        member: ``(b, n) bool`` incidence matrix; every card holds ``k`` points.
        k: Points per card.
    """
    b, n = member.shape
    together = member.T.astype(np.int64) @ member.astype(np.int64)
    np.fill_diagonal(together, 0)
    if together.max(initial=0) > 1:
        return None
    points = np.nonzero(member)[1].reshape(b, k)  # each card's points (np.nonzero goes card by card)
    common = np.full((n, n), b, dtype=np.intp)
    common[points[:, :, None], points[:, None, :]] = np.arange(b)[:, None, None]
    return common


CHUNK_ELEMENTS = 1 << 20
"""Most elements of the ``(points, cards, n)`` temporary :func:`swap_changes_many` makes at once."""


def swap_changes_many(
    member: np.ndarray,
    s: np.ndarray,
    k: int,
    points: np.ndarray,
    e: np.ndarray,
    e_by_point: np.ndarray | None = None,
    common: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`swap_changes` of several points ``p`` at once: ``(len(points), n)``.

    Points on the same number of cards are scored in one array operation, each row
    summed in the order :func:`swap_changes` of that point alone would sum it (its
    cards in ascending order), so the figures are the same to the bit.

    Args:
        points: ``(P,) int`` the points to move.
        member, s, k, e, e_by_point: As for :func:`swap_changes`.
        common: :func:`shared_cards` of ``member`` (None: summed card by card). Where two
            points share at most one card, the terms of the cards they share are that
            card's term and zeros, whose sum is the term exactly: looked up, not summed.
    """
    if e_by_point is None:
        e_by_point = e @ member
    points = np.asarray(points, dtype=np.intp)
    through = member[:, points].T  # (P, b): the cards through each point
    counts = through.sum(axis=1)
    out = np.empty((len(points), member.shape[1]))
    by_lookup = None if common is None else np.append(e, 0.0)[common[points]]  # (P, n); wrong at q = p (inf)
    for r in sorted(set(counts.tolist())):  # (np.unique would load numpy.ma: 5 ms a process)
        same = np.nonzero(counts == r)[0]
        step = max(1, CHUNK_ELEMENTS // max(1, int(r) * member.shape[1]))
        for rows in (same[i : i + step] for i in range(0, len(same), step)):
            cards = np.nonzero(through[rows])[1].reshape(len(rows), int(r))  # ascending in each row
            e_cards = e[cards]
            # (rows, n): the terms of the cards holding p and q
            shared = (member[cards] * e_cards[..., None]).sum(axis=1) if by_lookup is None else by_lookup[rows]
            d = (s[None, :] - s[points[rows], None]) / (k * TEMPERATURE)
            own = e_cards.sum(axis=1)[:, None]
            out[rows] = np.expm1(-d) * (own - shared) + np.expm1(d) * (e_by_point[None, :] - shared)
    out[np.arange(len(points)), points] = np.inf
    return out


def _best_swap(
    member: np.ndarray, s: np.ndarray, k: int, off_cards: np.ndarray, common: np.ndarray | None = None
) -> tuple[int, int] | None:
    """The swap ``(p, q)`` that lowers the penalty most, ``q`` not one of the points on no
    card (``off_cards``: ``(n,) bool``), or None if none lowers it (on a tie, the lowest p,
    then the lowest q); ``common``: see :func:`swap_changes_many`."""
    e = card_weights(member, s, k)
    worst = np.argsort(-e, kind="stable")[:WORST_CARDS]
    points = np.nonzero(member[worst].any(axis=0))[0]
    delta = swap_changes_many(member, s, k, points, e, e @ member, common)
    delta[:, off_cards] = np.inf
    q = delta.argmin(axis=1)
    gain = delta[np.arange(len(points)), q]
    lowers = gain < -1e-9 * e.sum()
    if not lowers.any():
        return None
    i = int(np.argmin(np.where(lowers, gain, np.inf)))
    return int(points[i]), int(q[i])
