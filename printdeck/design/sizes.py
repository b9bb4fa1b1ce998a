"""Which decks exist: symbols a card (k), λ, and how many cards and symbols a deck has.

With ``match`` λ = 1 the deck is a projective plane of order ``q = k - 1``: ``q^2 + q + 1``
cards and as many symbols. Planes exist for every prime power ``q`` (the
Desarguesian plane over GF(q); Veblen & Bussey 1906); for other ``q`` none is known,
or none exists (see :mod:`printdeck.design.reasons`).

With λ = 2 the deck is a symmetric 2-(v, k, 2) design (a biplane):
``v = 1 + k(k - 1)/2`` cards and symbols. Biplanes are known only for ``k`` in
{3, 4, 5, 6, 9, 11, 13} (Hall 1986, *Combinatorial Theory*, ch. 10).

The checks here raise :class:`~printdeck.design.refusals.DesignRequestError`s, which
each caller words with its own names (a theme's keys, a command's options).
"""

from __future__ import annotations

from printdeck.design.gf import is_prime_power
from printdeck.design.reasons import biplane_status, plane_status
from printdeck.design.refusals import NoDesign, SizeMissing, SizesDisagree, TooManyCards, TooSmall, UnsupportedMatch

BIPLANE_SIZES: dict[int, int] = {3: 4, 4: 7, 5: 11, 6: 16, 9: 37, 11: 56, 13: 79}
"""k -> v (cards = symbols) for every known biplane."""

MIN_SYMBOLS_PER_CARD = 3
MAX_SYMBOLS_PER_CARD = 32
"""Largest k listed by :func:`feasible_sizes` (a theme's ``symbols_per_card`` bound)."""
MIN_ORDER = 2


def deck_points(symbols_per_card: int, match: int) -> int:
    """Cards (= symbols) of the full design with ``symbols_per_card`` symbols a card and λ = ``match``."""
    k = symbols_per_card
    return k * k - k + 1 if match == 1 else 1 + k * (k - 1) // 2


def design_known(symbols_per_card: int, match: int) -> bool:
    """Whether a full design with k symbols a card and λ = ``match`` is known (and built by printdeck)."""
    return is_prime_power(symbols_per_card - 1) if match == 1 else symbols_per_card in BIPLANE_SIZES


def feasible_sizes(match: int, max_per_card: int = MAX_SYMBOLS_PER_CARD) -> list[int]:
    """Every k (3 .. ``max_per_card``) with a known design of λ = ``match``, ascending."""
    return [k for k in range(MIN_SYMBOLS_PER_CARD, max_per_card + 1) if design_known(k, match)]


def largest_deck(n_symbols: int, match: int, max_per_card: int = MAX_SYMBOLS_PER_CARD) -> int | None:
    """The largest k (at most ``max_per_card``) whose full design needs at most ``n_symbols``
    symbols, or None when even the smallest needs more."""
    fitting = [k for k in feasible_sizes(match, max_per_card) if deck_points(k, match) <= n_symbols]
    return fitting[-1] if fitting else None


def next_larger_deck(n_symbols: int, match: int) -> int | None:
    """The smallest k whose full design needs more than ``n_symbols`` symbols (the deck
    to grow to), or None when no known design is larger."""
    return next((k for k in feasible_sizes(match) if deck_points(k, match) > n_symbols), None)


def sizes_for_symbols(n_symbols: int, match: int = 1) -> str:
    """Describe the decks ``n_symbols`` allow, e.g. ``"order 5, 31 cards of 6; 57 needed for 8 a card"``.

    Args:
        n_symbols: Symbols available.
        match: λ.

    Returns:
        The largest deck that fits and the next larger one (or the smallest, if none fits).
    """
    fit = largest_deck(n_symbols, match)
    bigger = next_larger_deck(n_symbols, match)
    parts = []
    if fit is not None:
        label = f"order {fit - 1}, " if match == 1 else ""
        parts.append(f"{label}{deck_points(fit, match)} cards of {fit}")
    else:
        parts.append("too few for any deck")
    if bigger is not None:
        parts.append(f"{deck_points(bigger, match)} needed for {bigger} a card")
    return "; ".join(parts)


def resolve_symbols_per_card(order: int | None, k: int | None, match: int) -> int:
    """k from ``order`` and/or ``symbols_per_card`` (k = order + λ); checks they agree.

    Args:
        order: Plane order q (k = q + 1) or biplane order n (k = n + 2), or None.
        k: Symbols a card, or None.
        match: λ.

    Raises:
        DesignRequestError: λ is not 1 or 2; neither size is given; the order is below 2
            or k below 3; both are given and disagree.
    """
    if match not in (1, 2):
        raise UnsupportedMatch("match", match)
    if order is None and k is None:
        raise SizeMissing("")
    if order is not None and order < MIN_ORDER:
        raise TooSmall("order", order, least=MIN_ORDER)
    if k is not None and k < MIN_SYMBOLS_PER_CARD:
        raise TooSmall("symbols_per_card", k, least=MIN_SYMBOLS_PER_CARD)
    if order is not None and k is not None and order + match != k:
        raise SizesDisagree("order", order, symbols_per_card=k, match=match)
    return k if k is not None else (order or 0) + match


def check_design_exists(symbols_per_card: int, match: int, *, search: bool = False, order_given: bool = False) -> bool:
    """Whether the full design exists (True) or a partial deck will be searched for (False).

    Args:
        symbols_per_card: k.
        match: λ (1 or 2).
        search: A partial deck may be searched for when no plane is known (λ = 1 only).
        order_given: The caller gave ``order`` rather than ``symbols_per_card`` (the
            error then names ``order``).

    Raises:
        NoDesign: No design of that size is known (and no search is allowed), with the
            reason and the nearest sizes that exist.
    """
    k = symbols_per_card
    if design_known(k, match):
        return True
    if search and match == 1:
        return False
    argument, value = ("order", k - match) if order_given else ("symbols_per_card", k)
    sizes = feasible_sizes(match, max(2 * k + 2, MAX_SYMBOLS_PER_CARD))
    below = [m for m in sizes if m < k][-1:]
    above = [m for m in sizes if m > k][:1]
    nearest = tuple((m, deck_points(m, match)) for m in below + above)
    if match == 1:
        raise NoDesign(argument, value, k, match, plane_status(k - 1), nearest)
    raise NoDesign(argument, value, k, match, biplane_status(k), nearest, tuple(BIPLANE_SIZES), searched=search)


def check_cards(cards: int | None, full: int, symbols_per_card: int) -> None:
    """Check a requested card count against a deck of ``full`` cards.

    Raises:
        DesignRequestError: ``cards`` is below 1 or above ``full``.
    """
    if cards is None:
        return
    if cards < 1:
        raise TooSmall("cards", cards, least=1)
    if cards > full:
        raise TooManyCards("cards", cards, full=full, symbols_per_card=symbols_per_card)
