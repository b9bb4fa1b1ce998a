"""Pinned placements (``layout.pinned``): symbols a theme fixes in place on a card.

A card is named by its number in the deck (1 = first, as printed; the design's card
order for the deck's trim) and guarded by the names of the symbols it showed when it
was pinned: another seed, other symbols or another deck size make other cards, and a
pin whose card now shows other symbols is not applied (a warning names it) rather than
put on a card it was not made for. A pinned symbol is put first, with the layout's own
checks (:func:`printdeck.layout.packing.pin_conflict`: inside the safe zone, the gap
kept to the other pins and to a kept-free centre), and the card's other symbols are
packed around it (:mod:`printdeck.layout.packing.pinned`). Lengths are mm in card
coordinates (origin at the card's centre, y up), angles degrees counter-clockwise.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from printdeck.artwork import Silhouette
from printdeck.errors import PinWarning, PrintdeckError
from printdeck.model import SymbolSpec
from printdeck.theme import Theme
from printdeck.units import shown_under

if TYPE_CHECKING:
    from printdeck.layout.packing import PinConflict


@dataclass(frozen=True)
class PinnedSymbol:
    """One symbol's fixed place on a card.

    Attributes:
        name: The symbol's name.
        center_mm: Its box centre ``(x, y)``, mm from the card's centre (y up).
        rotation_deg: Its turn, degrees counter-clockwise.
        size_mm: The longer side of its box (the drawing's frame), mm.
    """

    name: str
    center_mm: tuple[float, float]
    rotation_deg: float
    size_mm: float

    def pose(self, sil: Silhouette) -> tuple[float, float, float, float]:
        """The packer's pose ``(x_mm, y_mm, angle_rad, box_height_mm)`` of this pin for
        the symbol's silhouette ``sil`` (box width = ``sil.aspect`` times its height)."""
        height_mm = self.size_mm / max(sil.aspect, 1.0)
        return self.center_mm[0], self.center_mm[1], math.radians(self.rotation_deg), height_mm


@dataclass(frozen=True)
class PinnedCard:
    """One card's pins (an entry of ``layout.pinned``).

    Attributes:
        key: The entry's theme key, ``layout.pinned.N``, for messages.
        symbols: The names of the symbols the card showed when pinned (the guard).
        place: The pinned symbols.
    """

    key: str
    symbols: tuple[str, ...]
    place: tuple[PinnedSymbol, ...]

    def matches(self, card: Sequence[SymbolSpec]) -> bool:
        """Whether ``card`` shows exactly the symbols this entry was pinned on."""
        return sorted(s.name for s in card) == sorted(self.symbols)


def pins_from_theme(theme: Theme) -> dict[int, PinnedCard]:
    """The theme's ``layout.pinned`` as :class:`PinnedCard` records by card index (0-based)."""
    out: dict[int, PinnedCard] = {}
    for n, entry in enumerate(theme.spec.layout.pinned):
        place = tuple(
            PinnedSymbol(name, (pin.center_mm[0], pin.center_mm[1]), pin.rotation_deg, pin.size_mm)
            for name, pin in entry.place.items()
        )
        out[entry.card - 1] = PinnedCard(f"layout.pinned.{n}", tuple(entry.symbols), place)
    return out


def applicable_pins(
    cards: Sequence[Sequence[SymbolSpec]], pins: Mapping[int, PinnedCard], index_base: int = 0
) -> dict[int, PinnedCard]:
    """The entries of ``pins`` whose cards (of ``cards``, indices from ``index_base``)
    show the symbols they were pinned on; every other entry for one of these cards is
    left out with a :class:`PinWarning` naming its key and the fix."""
    out: dict[int, PinnedCard] = {}
    for index, entry in sorted(pins.items()):
        if not index_base <= index < index_base + len(cards):
            continue
        card = cards[index - index_base]
        if entry.matches(card):
            out[index] = entry
            continue
        elsewhere = next((j for j, c in enumerate(cards) if entry.matches(c)), None)
        fix = (
            f"it is now card {index_base + elsewhere + 1}: set {entry.key}.card to that"
            if elsewhere is not None
            else f"pin that card again or remove {entry.key}"
        )
        warnings.warn(
            PinWarning(
                f"{entry.key}: card {index + 1} now shows {', '.join(s.name for s in card)}, not the symbols it "
                f"was pinned on ({', '.join(entry.symbols)}): the deck changed (seed, symbols or size), so its "
                f"pins are not applied; {fix}",
                index + 1,
                None if elsewhere is None else index_base + elsewhere + 1,
            ),
            stacklevel=3,
        )
    return out


def warn_rerolls_of_missing_cards(reroll: Mapping[int, int], n_cards: int) -> None:
    """Warn about each ``layout.reroll`` entry for a card the deck does not have (``reroll``
    0-based, as :class:`~printdeck.layout.settings.LayoutSettings` holds it): it was left
    out without a word, as a pin of a missing card is not.

    Warns:
        PinWarning: Naming ``layout.reroll.N``, the card and the deck's card count.
    """
    for index in sorted(reroll):
        if index >= n_cards:
            warnings.warn(
                PinWarning(
                    f"layout.reroll.{index + 1}: card {index + 1} is not in the deck, which has {n_cards} cards, so "
                    f"it is not re-rolled; give a card from 1 to {n_cards}, or remove the entry",
                    index + 1,
                    deck_cards=n_cards,
                ),
                stacklevel=3,
            )


def warn_pins_of_missing_cards(pins: Mapping[int, PinnedCard], n_cards: int) -> None:
    """Warn about each entry for a card the deck does not have (any more: fewer symbols, or
    ``deck.cards`` trimmed); the layout leaves it out, as it leaves out a card's pins
    whose card shows other symbols, so the deck still builds and the entry applies again
    should the deck grow back.

    Warns:
        PinWarning: Naming ``layout.pinned.N``, the card and the deck's card count.
    """
    for index, entry in sorted(pins.items()):
        if index >= n_cards:
            warnings.warn(
                PinWarning(
                    f"{entry.key}: card {index + 1} is not in the deck, which has {n_cards} cards: the deck changed "
                    f"(symbols or cards), so its pins are not applied; give a card from 1 to {n_cards}, or remove "
                    f"{entry.key}",
                    index + 1,
                    deck_cards=n_cards,
                ),
                stacklevel=3,
            )


def card_poses(
    entry: PinnedCard | None, symbols: Sequence[SymbolSpec], sils: Sequence[Silhouette]
) -> tuple[tuple[float, float, float, float] | None, ...]:
    """The packer's ``PackInput.pinned`` for one card: per symbol its pinned pose or None
    (``()`` without pins)."""
    if entry is None:
        return ()
    by_name = {pin.name: pin for pin in entry.place}
    return tuple(by_name[s.name].pose(sil) if s.name in by_name else None for s, sil in zip(symbols, sils, strict=True))


@dataclass(frozen=True)
class PinRefusal:
    """Why the layout refuses a card's pins.

    Attributes:
        error: The build's error (naming the pin's key, ``layout.pinned.N.place.NAME...``).
        symbol: The pinned symbol refused (its name).
        reason: ``"outside"`` (it leaves the safe zone), ``"touches"`` (within
            ``layout.gap`` of ``other``), ``"centre-mark"`` (of the kept-free centre) or
            ``"too-small"`` (under the smallest size a symbol may print).
        other: The pinned symbol it touches (``"touches"`` only).
    """

    error: PrintdeckError
    symbol: str
    reason: str
    other: str | None = None


def conflict_refusal(entry: PinnedCard, symbols: Sequence[SymbolSpec], conflict: PinConflict, zone: str) -> PinRefusal:
    """The refusal of a pin the layout's checks refuse (``conflict``, of the card's
    ``symbols``; ``zone`` describes the safe zone)."""
    symbol = symbols[conflict.symbol]
    key = f"{entry.key}.place.{symbol.name}.center"
    if conflict.reason == "outside":
        error = PrintdeckError(
            key=key,
            problem=f"{symbol.name!r} would reach out of the card's {zone} safe zone",
            fix="move it towards the centre or make its size smaller",
            code="pin-outside",
        )
        return PinRefusal(error, symbol.name, "outside")
    other = conflict.other
    what = "the card's centre mark (paper.centre_mark)" if other < 0 else f"the pinned symbol {symbols[other].name!r}"
    error = PrintdeckError(
        key=key,
        problem=f"{symbol.name!r} would touch {what} (symbols keep layout.gap apart)",
        fix="move it away, turn it or make its size smaller",
        code="pin-touches",
    )
    if other < 0:
        return PinRefusal(error, symbol.name, "centre-mark")
    return PinRefusal(error, symbol.name, "touches", symbols[other].name)


def too_small_refusal(entry: PinnedCard, symbol: SymbolSpec, ink_mm: float, min_mm: float) -> PinRefusal:
    """The refusal of a pinned symbol under the smallest size a symbol may print."""
    error = PrintdeckError(
        key=f"{entry.key}.place.{symbol.name}.size",
        problem=f"{symbol.name!r} would be only {shown_under(ink_mm, min_mm)} mm "
        f"(square root of its ink area; minimum {min_mm:g} mm)",
        fix="make its size larger",
        code="pin-too-small",
    )
    return PinRefusal(error, symbol.name, "too-small")


def for_one_card(pins: Mapping[int, PinnedCard], index: int) -> dict[int, PinnedCard]:
    """``pins`` reduced to card ``index``'s entry (for that card's cache key)."""
    return {index: pins[index]} if index in pins else {}


__all__ = [
    "PinRefusal",
    "PinWarning",
    "PinnedCard",
    "PinnedSymbol",
    "applicable_pins",
    "card_poses",
    "conflict_refusal",
    "for_one_card",
    "pins_from_theme",
    "too_small_refusal",
    "warn_pins_of_missing_cards",
]
