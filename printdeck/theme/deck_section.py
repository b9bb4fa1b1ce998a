"""The theme's ``deck`` section: the deck it asks for, checked against the symbols it offers.

Which sizes exist is :mod:`printdeck.design`'s to say (:func:`~printdeck.design.deck_points`,
:func:`~printdeck.design.check_design_exists`...); this module adds what only a theme
has: inferring the size from the number of symbols, and wording design refusals with
the theme's keys (``deck.symbols_per_card: ...; or set search: true``).
"""

from __future__ import annotations

from dataclasses import dataclass

from printdeck.design import (
    MAX_SYMBOLS_PER_CARD,
    DesignRequestError,
    Spelling,
    check_cards,
    check_design_exists,
    deck_points,
    feasible_sizes,
    largest_deck,
    resolve_symbols_per_card,
)
from printdeck.errors import PrintdeckError
from printdeck.theme.spec import DeckSpec

TOO_FEW_SYMBOLS = "too-few-symbols"
"""``PrintdeckError.code`` of a theme with fewer symbols than its deck needs."""

INFERRED_MAX_PER_CARD = 8
"""Largest k chosen when a theme gives no size (the classic 8 a card)."""

THEME_SPELLING = Spelling(label="deck.{name}", setting="{name}: {value}", switch_on="set {name}: true")
"""``make_design``'s keywords as a theme's ``deck`` section names them."""


def theme_worded(exc: DesignRequestError) -> PrintdeckError:
    """A design refusal worded with the theme's keys (``deck.order: ...``), as a PrintdeckError."""
    key = f"deck.{exc.argument}" if exc.argument else "deck"
    return PrintdeckError(
        exc.worded(THEME_SPELLING),
        key=key,
        value=exc.value if exc.argument else None,
        problem=exc.problem_in(THEME_SPELLING),
    )


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


def inferred_symbols_per_card(match: int, n_symbols: int) -> int:
    """The largest k the theme's ``n_symbols`` fill (at most 8 a card for ``match: 1``).

    Raises:
        PrintdeckError: Too few symbols for even the smallest deck (says how many more).
    """
    k = largest_deck(n_symbols, match, INFERRED_MAX_PER_CARD if match == 1 else MAX_SYMBOLS_PER_CARD)
    if k is None:
        smallest = feasible_sizes(match)[0]
        need = deck_points(smallest, match)
        raise PrintdeckError(
            f"symbols: the smallest deck (match {match}, {smallest} a card) needs {need} symbols "
            f"but the theme gives {n_symbols}; add {need - n_symbols} more",
            key="symbols",
            value=n_symbols,
            code=TOO_FEW_SYMBOLS,
        )
    return k


def deck_size_requirements(deck: DeckSpec, n_symbols: int) -> DeckSize:
    """Check the ``deck`` section against the symbols the theme offers.

    Args:
        deck: The theme's deck section.
        n_symbols: How many symbols the theme offers.

    Returns:
        The deck's size.

    Raises:
        PrintdeckError: order and symbols_per_card disagree; no design exists for
            that size and ``search`` is off (or match is 2): the message names the
            theorem and the nearest sizes; ``cards`` exceeds the design; fewer symbols
            than the deck needs (the message says how many more).
    """
    try:
        if deck.order is None and deck.symbols_per_card is None:
            k = inferred_symbols_per_card(deck.match, n_symbols)
        else:
            k = resolve_symbols_per_card(deck.order, deck.symbols_per_card, deck.match)
        known = check_design_exists(k, deck.match, search=deck.search, order_given=deck.symbols_per_card is None)
        points = deck_points(k, deck.match) if known else None
        if points is not None:
            check_cards(deck.cards, points, k)
    except DesignRequestError as exc:
        raise theme_worded(exc) from None
    needed = points if points is not None else k
    if n_symbols < needed:
        raise PrintdeckError(
            f"symbols: the deck ({k} a card, match {deck.match}) needs {needed} symbols but "
            f"the theme gives {n_symbols}; add {needed - n_symbols} more or choose a smaller deck",
            key="symbols",
            value=n_symbols,
            code=TOO_FEW_SYMBOLS,
        )
    cards = None if points is None else (deck.cards or points)
    return DeckSize(symbols_per_card=k, match=deck.match, design_points=points, cards=cards, symbols_needed=needed)
