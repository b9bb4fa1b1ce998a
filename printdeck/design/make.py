"""Making a deck's design: pick the construction, trim, renumber.

Every two cards share exactly λ symbols (λ = 1: projective planes, λ = 2: biplanes).
:func:`make_design` refuses impossible requests with a
:class:`~printdeck.design.refusals.DesignRequestError` saying why and what exists nearby.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from printdeck.design.biplanes import biplane_blocks
from printdeck.design.planes import singer_blocks
from printdeck.design.search import search_deck
from printdeck.design.sizes import check_cards, check_design_exists, resolve_symbols_per_card
from printdeck.design.trim import drop_unused as renumber_used, trim_order


@dataclass(frozen=True)
class Design:
    """A deck's combinatorial design.

    Attributes:
        order: q of the plane (k = q + 1), or n = k - λ for biplanes; None for
            searched partial decks.
        lam: λ, the symbols every two cards share (1 or 2).
        n_points: Symbols (points), numbered 0..n_points-1.
        blocks: Each card's symbols, sorted.
        construction: How it was built, e.g. ``"PG(2,7) over GF(7), Singer difference set"``.
        full_cards: Cards before trimming.
    """

    order: int | None
    lam: int
    n_points: int
    blocks: tuple[tuple[int, ...], ...]
    construction: str
    full_cards: int

    @cached_property
    def incidence(self) -> np.ndarray:
        """(cards, points) bool: ``incidence[c, p]`` when card c shows symbol p."""
        sizes = [len(b) for b in self.blocks]
        m = np.zeros((len(self.blocks), self.n_points), dtype=bool)
        m[np.repeat(np.arange(len(sizes)), sizes), [p for b in self.blocks for p in b]] = True
        return m

    @property
    def symbols_per_card(self) -> int:
        """k (every card has the same number of symbols)."""
        return len(self.blocks[0]) if self.blocks else 0


@dataclass(frozen=True)
class _Full:
    """The whole design before trimming: order, (cards, k) int64 blocks, symbols, construction."""

    order: int | None
    blocks: np.ndarray
    n_points: int
    construction: str


def make_design(
    *,
    order: int | None = None,
    symbols_per_card: int | None = None,
    match: int = 1,
    cards: int | None = None,
    search: bool = False,
    drop_unused: bool = False,
    time_limit_s: float = 10.0,
) -> Design:
    """Build the deck design: a plane (λ = 1), a biplane (λ = 2) or a searched partial deck.

    Args:
        order: Plane order q (k = q + 1) or biplane order n (k = n + 2).
        symbols_per_card: k; give this or ``order`` (both must agree).
        match: λ, symbols every two cards share: 1 or 2.
        cards: Trim to this many cards (see :mod:`printdeck.design.trim` for the rule).
        search: When no plane of order k - 1 is known, build the largest partial deck
            found (λ = 1 only) instead of refusing.
        drop_unused: After trimming, renumber symbols so unused ones disappear.
        time_limit_s: Search budget, seconds: fixes CP-SAT's deterministic work (the
            deck depends on it, not on machine speed) and caps the wall-clock time.

    Returns:
        The design; ``blocks`` hold symbol numbers 0..n_points-1.

    Raises:
        NoDesign: No such design exists or is known (with the reason and the nearest
            sizes that exist).
        DesignRequestError: Parameters out of range or in conflict, or ``cards``
            exceeds the deck. Both are ``PrintdeckError``s; ``worded()`` words them
            with a caller's names.
    """
    k = resolve_symbols_per_card(order, symbols_per_card, match)
    if check_design_exists(k, match, search=search, order_given=symbols_per_card is None):
        full = _full_design(k, match)
    else:
        deck, how = search_deck(k, time_limit_s)
        arr = np.array(deck, dtype=np.int64)
        full = _Full(None, arr, int(arr.max()) + 1, f"search for k={k}: {how}")
    return _finish(full, k, match, cards, drop_unused)


def _full_design(k: int, match: int) -> _Full:
    """The known design with k symbols a card and λ = ``match`` (a biplane, or PG(2, k - 1))."""
    if match == 2:
        arr, how = biplane_blocks(k)
        return _Full(k - 2, arr, len(arr), how)
    q = k - 1
    return _Full(q, singer_blocks(q), q * q + q + 1, f"PG(2,{q}) over GF({q}), Singer difference set (Singer 1938)")


def _finish(full: _Full, k: int, match: int, cards: int | None, drop: bool) -> Design:
    """Trim and renumber; wrap as a Design."""
    arr, v, how = full.blocks, full.n_points, full.construction
    n_full = len(arr)
    check_cards(cards, n_full, k)
    if cards is not None and cards < n_full:
        arr = arr[trim_order(arr, v, cards)]
        how += f", trimmed to {cards} of {n_full} cards (even frequencies)"
    blocks = tuple(map(tuple, arr.tolist()))
    if drop:
        renumbered, v2 = renumber_used(list(blocks), v)
        if v2 < v:
            how += f", {v - v2} unused symbols dropped"
        blocks, v = tuple(renumbered), v2
    return Design(full.order, match, v, blocks, how, n_full)
