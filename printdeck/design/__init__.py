"""printdeck.design: which symbols go on which card.

Every two cards share exactly λ symbols (λ = 1: projective planes, λ = 2: biplanes).
:func:`make_design` picks the construction, trims, and refuses impossible requests
with one line saying why and what exists nearby. :func:`verify_blocks` checks any
deck independently of how it was built.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from printdeck.design.biplanes import BIPLANE_SIZES, biplane_blocks
from printdeck.design.gf import is_prime_power
from printdeck.design.planes import singer_blocks
from printdeck.design.reasons import biplane_refusal, plane_refusal
from printdeck.design.trim import drop_unused as _drop_unused
from printdeck.design.trim import trim_order
from printdeck.design.verify import VerifyReport, verify_blocks
from printdeck.errors import PrintdeckError

__all__ = ["Design", "VerifyReport", "make_design", "verify_blocks"]


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


def make_design(*, order: int | None = None, symbols_per_card: int | None = None, match: int = 1,
                cards: int | None = None, search: bool = False, drop_unused: bool = False,
                time_limit_s: float = 10.0) -> Design:
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
        PrintdeckError: No such design exists or is known (with the reason and the
            nearest sizes that exist), parameters conflict, or ``cards`` exceeds the deck.
    """
    k = _symbols_per_card(order, symbols_per_card, match)
    key = "deck.symbols_per_card:" if symbols_per_card is not None else "deck.order:"
    if match == 2:
        if k not in BIPLANE_SIZES:
            raise PrintdeckError(biplane_refusal(k).replace("deck.symbols_per_card:", key, 1))
        arr, how = biplane_blocks(k)
        base = (k - 2, arr, len(arr), how)
    elif is_prime_power(k - 1):
        q = k - 1
        base = (q, singer_blocks(q), q * q + q + 1, f"PG(2,{q}) over GF({q}), Singer difference set (Singer 1938)")
    elif search:
        from printdeck.design.search import search_deck

        deck, how = search_deck(k, time_limit_s)
        arr = np.array(deck, dtype=np.int64)
        base = (None, arr, int(arr.max()) + 1, f"search for k={k}: {how}")
    else:
        raise PrintdeckError(plane_refusal(k).replace("deck.symbols_per_card:", key, 1))
    return _finish(base, match, cards, drop_unused)


def _symbols_per_card(order: int | None, k: int | None, match: int) -> int:
    """k from the deck section's ``order`` / ``symbols_per_card``; checks they agree."""
    if match not in (1, 2):
        raise PrintdeckError(f"deck.match: {match} is not supported; use 1 (Dobble) or 2 (two shared symbols)")
    if order is None and k is None:
        raise PrintdeckError("deck: give symbols_per_card (e.g. 8) or order (e.g. 7)")
    if order is not None and order < 2:
        raise PrintdeckError(f"deck.order: {order} is too small; the smallest order is 2")
    if k is not None and k < 3:
        raise PrintdeckError(f"deck.symbols_per_card: {k} is too small; use at least 3")
    from_order = None if order is None else order + match
    if from_order is not None and k is not None and from_order != k:
        raise PrintdeckError(
            f"deck: order {order} means {from_order} symbols per card with match {match}, "
            f"but symbols_per_card is {k}; give only one of them")
    return k if k is not None else int(from_order)  # type: ignore[arg-type]


def _finish(base: tuple, match: int, cards: int | None, drop: bool) -> Design:
    """Trim and renumber; wrap as a Design."""
    order, arr, v, how = base
    full = len(arr)
    if cards is not None:
        if cards < 1:
            raise PrintdeckError(f"deck.cards: {cards} must be at least 1")
        if cards > full:
            raise PrintdeckError(
                f"deck.cards: {cards} is more than the {full} cards this design has "
                f"({how}); ask for at most {full} cards or more symbols per card")
        if cards < full:
            arr = arr[trim_order(arr, v, cards)]
            how += f", trimmed to {cards} of {full} cards (even frequencies)"
    blocks = tuple(map(tuple, arr.tolist()))
    if drop:
        renumbered, v2 = _drop_unused(list(blocks), v)
        if v2 < v:
            how += f", {v - v2} unused symbols dropped"
        blocks, v = tuple(renumbered), v2
    return Design(order, match, v, blocks, how, full)

