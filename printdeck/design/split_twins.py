"""A split deck's manifest (``deck.faces: split``): deck A's cards to verify, and what is
wrong with deck B, whose every card must be the twin of one card of A."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from printdeck.design.deck_lines import CardAt


def split_deck_a(raw: list[Any], cards: list[list[int]], path: Path) -> tuple[list[list[int]], tuple[str, ...]]:
    """A split build's manifest (cards marked ``"deck": "A"`` / ``"B"`` with a ``"twin"``,
    the other card's ``"index"``): deck A's cards, and what is wrong with deck B. Every card
    of A must have exactly one twin in B that shows its symbols (and name it back); then
    deck A holding λ proves every A-B pair of distinct cards shares λ symbols too. Faults
    count cards from 1, by their place in the file.

    Returns:
        ``(deck A's cards, faults)``; no faults, and ``cards`` as given, for any other file.

    Raises:
        PrintdeckError: a card's ``deck`` is not "A" or "B", a ``twin`` or ``index`` is not
            a whole number, or two cards have one ``index`` (not a split deck's manifest).
    """
    decks = [c.get("deck") if isinstance(c, dict) else None for c in raw]
    if not any(isinstance(d, str) for d in decks):  # a class set's decks are numbers (see _deck_numbers)
        return cards, ()
    place = _places(raw, path)
    twins = [place.get(_twin(card, i, path), -1) for i, card in enumerate(raw)]
    named_by: dict[int, list[int]] = {i: [] for i, deck in enumerate(decks) if deck == "A"}
    faults = []
    for b in (i for i, deck in enumerate(decks) if deck == "B"):
        twin = twins[b]
        if twin not in named_by:
            faults.append(
                f"card {b + 1} (deck B) names as its twin a card the file does not have"
                if twin < 0
                else f"card {b + 1} (deck B) names card {twin + 1} as its twin, a card of deck B, not A"
            )
            continue
        named_by[twin].append(b)
        if sorted(cards[twin]) != sorted(cards[b]):
            faults.append(f"card {b + 1} (deck B) does not show the symbols of its twin, card {twin + 1} of deck A")
    for a, bs in named_by.items():
        if not bs:
            faults.append(f"card {a + 1} (deck A) has no twin in deck B")
        elif len(bs) > 1:
            faults.append(f"card {a + 1} (deck A) is the twin of {len(bs)} cards of deck B: " + _numbers(bs))
        elif twins[a] != bs[0]:
            faults.append(
                f"cards {a + 1} and {bs[0] + 1} are not each other's twins: card {bs[0] + 1} (deck B) names "
                f"card {a + 1}, but card {a + 1} names another"
            )
    return [cards[a] for a in named_by], tuple(faults)


def _places(raw: list[Any], path: Path) -> dict[int, int]:
    """Each card's ``index`` (its place in the file when it has none) -> its place (from 0).

    Raises:
        PrintdeckError: an ``index`` that is not a whole number, or one that two cards have.
    """
    place: dict[int, int] = {}
    for i, card in enumerate(raw):
        index = card.get("index", i) if isinstance(card, dict) else i
        if isinstance(index, bool) or not isinstance(index, int):
            raise CardAt(path, i).error(f'"index": {json.dumps(index)[:20]} is not a whole number', value=index)
        if index in place:
            raise CardAt(path, i).error(
                f'"index": {index} is also that of card {place[index] + 1}',
                "every card of a split deck has its own index",
            )
        place[index] = i
    return place


def _twin(card: Any, index: int, path: Path) -> int:
    """A split deck's card's ``twin``: the other card's ``index``, as the file writes it.

    Raises:
        PrintdeckError: the card's ``deck`` is not "A" or "B", or its ``twin`` is not a whole
            number.
    """
    deck = card.get("deck") if isinstance(card, dict) else None
    if deck not in ("A", "B"):
        raise CardAt(path, index).error(
            f'"deck": {json.dumps(deck)[:20]} in a split deck; every card is in deck "A" or "B"', value=deck
        )
    twin = card.get("twin")
    if isinstance(twin, bool) or not isinstance(twin, int):
        raise CardAt(path, index).error(f'"twin": {json.dumps(twin)[:20]} is not a card\'s index', value=twin)
    return twin


def _numbers(cards: list[int]) -> str:
    """Card indices (0-based) as the user counts them: "cards 3, 9 and 12"."""
    shown_cards = [str(c + 1) for c in cards]
    return "cards " + (", ".join(shown_cards[:-1]) + " and " + shown_cards[-1] if len(cards) > 1 else shown_cards[0])
