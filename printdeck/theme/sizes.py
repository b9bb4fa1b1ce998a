"""Which deck sizes exist, and how many symbols a theme's deck needs.

A deck where every two cards share exactly one symbol (``match: 1``) with ``k``
symbols a card is a finite projective plane of order ``q = k - 1``: ``q^2 + q + 1``
cards and as many symbols. Planes exist for every prime power ``q`` (the
Desarguesian plane over GF(q); Veblen & Bussey 1906); for other ``q`` none is
known, or none exists (Bruck–Ryser 1949; Lam, Thiel & Swiercz 1989): the refusal
messages come from ``printdeck.design.reasons`` so both stages word them alike.

With ``match: 2`` the deck is a symmetric 2-(v, k, 2) design (a biplane):
``v = 1 + k(k - 1)/2`` cards and symbols. Biplanes are known only for
``k`` in {3, 4, 5, 6, 9, 11, 13} (Hall 1986, *Combinatorial Theory*, ch. 10).
"""

from __future__ import annotations

from dataclasses import dataclass

from printdeck.design.gf import is_prime_power
from printdeck.errors import PrintdeckError
from printdeck.theme.model import DeckSpec

BIPLANE_K = (3, 4, 5, 6, 9, 11, 13)
"""Symbols a card of every known biplane (match 2)."""

MAX_SYMBOLS_PER_CARD = 32
INFERRED_MAX_PER_CARD = 8
"""Largest k chosen when a theme gives no size (the classic 8 a card)."""


def deck_points(symbols_per_card: int, match: int) -> int:
    """Cards (= symbols) of the full design with ``k`` symbols a card and λ = ``match``."""
    k = symbols_per_card
    return k * k - k + 1 if match == 1 else 1 + k * (k - 1) // 2


def feasible_sizes(match: int) -> list[int]:
    """Every ``k`` (symbols a card, 3..32) with a known design, ascending."""
    if match == 2:
        return list(BIPLANE_K)
    return [k for k in range(3, MAX_SYMBOLS_PER_CARD + 1) if is_prime_power(k - 1)]


@dataclass(frozen=True)
class DeckSize:
    """What a theme's ``deck`` section asks for.

    Attributes:
        symbols_per_card: k.
        match: λ, symbols two cards share.
        design_points: Symbols (= cards) of the full design; ``None`` when no design
            exists and a partial deck is searched for.
        cards: Cards in the printed deck (after trimming), ``None`` if searched.
        symbols_needed: Fewest symbols the theme must offer (``design_points``, or k
            for a search).
    """

    symbols_per_card: int
    match: int
    design_points: int | None
    cards: int | None
    symbols_needed: int


def _symbols_per_card(deck: DeckSpec, n_symbols: int) -> int:
    """k from ``symbols_per_card``/``order``, or the largest deck ``n_symbols`` allow."""
    if deck.order is not None:
        from_order = deck.order + deck.match
        if deck.symbols_per_card is not None and deck.symbols_per_card != from_order:
            raise PrintdeckError(f"deck.order: order {deck.order} means {from_order} symbols a card with match "
                                 f"{deck.match} but symbols_per_card is {deck.symbols_per_card}; give only one of them")
        return from_order
    if deck.symbols_per_card is not None:
        return deck.symbols_per_card
    fitting = [k for k in feasible_sizes(deck.match)
               if deck_points(k, deck.match) <= n_symbols and (k <= INFERRED_MAX_PER_CARD or deck.match == 2)]
    if not fitting:
        k = feasible_sizes(deck.match)[0]
        raise PrintdeckError(f"symbols: the smallest deck (match {deck.match}, {k} a card) needs "
                             f"{deck_points(k, deck.match)} symbols but the theme gives {n_symbols}; add "
                             f"{deck_points(k, deck.match) - n_symbols} more")
    return fitting[-1]


def _design_known(k: int, match: int) -> bool:
    return is_prime_power(k - 1) if match == 1 else k in BIPLANE_K


def deck_size_requirements(deck: DeckSpec, n_symbols: int) -> DeckSize:
    """Check the ``deck`` section against the symbols the theme offers.

    Args:
        deck: The theme's deck section.
        n_symbols: How many symbols the theme offers.

    Returns:
        The deck's size.

    Raises:
        PrintdeckError: order and symbols_per_card disagree; no design exists for
            that size and ``search`` is off (or match is 2): the message, from
            ``printdeck.design.reasons``, names the theorem and the nearest sizes; ``cards`` exceeds the design; fewer symbols
            than the deck needs (the message says how many more).
    """
    k = _symbols_per_card(deck, n_symbols)
    known = _design_known(k, deck.match)
    if not known and (not deck.search or deck.match == 2):
        from printdeck.design.reasons import biplane_refusal, plane_refusal

        raise PrintdeckError(plane_refusal(k) if deck.match == 1 else biplane_refusal(k))
    points = deck_points(k, deck.match) if known else None
    if points is not None and deck.cards is not None and deck.cards > points:
        raise PrintdeckError(f"deck.cards: the deck with {k} symbols a card has {points} cards; give at most {points}")
    needed = points if points is not None else k
    if n_symbols < needed:
        raise PrintdeckError(f"symbols: the deck ({k} a card, match {deck.match}) needs {needed} symbols but "
                             f"the theme gives {n_symbols}; add {needed - n_symbols} more or choose a smaller deck")
    cards = None if points is None else (deck.cards or points)
    return DeckSize(symbols_per_card=k, match=deck.match, design_points=points, cards=cards, symbols_needed=needed)


def sizes_for_symbols(n_symbols: int, match: int = 1) -> str:
    """Describe the decks ``n_symbols`` allow, e.g. ``"order 5, 31 cards of 6; 57 needed for 8 a card"``.

    Args:
        n_symbols: Symbols available.
        match: λ.

    Returns:
        The largest deck that fits and the next larger one (or the smallest, if none fits).
    """
    sizes = feasible_sizes(match)
    fit = [k for k in sizes if deck_points(k, match) <= n_symbols]
    bigger = [k for k in sizes if deck_points(k, match) > n_symbols]
    parts = []
    if fit:
        k = fit[-1]
        label = f"order {k - 1}, " if match == 1 else ""
        parts.append(f"{label}{deck_points(k, match)} cards of {k}")
    else:
        parts.append("too few for any deck")
    if bigger:
        k = bigger[0]
        parts.append(f"{deck_points(k, match)} needed for {k} a card")
    return "; ".join(parts)
