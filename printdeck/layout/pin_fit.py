"""A touched-up symbol made to fit: the largest size at which its pin passes the layout's
checks where it was put (``layout.pinned``), its centre and turn kept.

A symbol the layout packed ``layout.gap`` from its neighbours cannot move a fraction of a
millimetre, or grow at all, without coming within the gap of one; a touch-up that would
is refused (:func:`~printdeck.layout.card.pin_refusal`). Made a little smaller about its
centre, it usually fits: :func:`fitted_pin_size` finds how much smaller, by bisection of
the very checks the build makes, so what it gives is a size the build takes.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

from printdeck.layout.card import pin_refusal
from printdeck.layout.pins import PinRefusal
from printdeck.layout.settings import LayoutSettings
from printdeck.model import SymbolSpec

FIT_SMALLEST = 0.6
"""A symbol is made at most this much smaller (a share of the size asked) to fit."""
FIT_STEP_MM = 0.01
"""The bisection stops when the sizes that pass and fail are this close (mm); the size
given is rounded down to it."""
FITTING = frozenset({"touches", "outside", "centre-mark"})
"""Refusals a smaller symbol can end (not ``too-small``)."""


def fitted_pin_size(index: int, symbols: Sequence[SymbolSpec], settings: LayoutSettings, name: str) -> float | None:
    """The largest size (mm, the frame's longer side) at most the pinned one at which
    symbol ``name``'s pin on card ``index`` passes the layout's checks, the other pins as
    they are; the pinned size itself when it passes.

    Args:
        index: Card index (0-based), as ``settings.pins`` keys it.
        symbols: The card's symbols, in card order.
        settings: The deck's layout settings, holding the card's pins.
        name: The pinned symbol to fit.

    Returns:
        The size, rounded down to :data:`FIT_STEP_MM`; None when the card has no such pin,
        or when at :data:`FIT_SMALLEST` of its size (or the smallest size that prints, if
        that is larger) the card is still refused (another pin's problem, a centre outside
        the safe zone).
    """
    entry = settings.pins.get(index)
    pin = next((p for p in entry.place if p.name == name), None) if entry is not None else None
    if entry is None or pin is None:
        return None

    def refusal_at(size_mm: float) -> PinRefusal | None:
        place = tuple(dataclasses.replace(p, size_mm=size_mm) if p.name == name else p for p in entry.place)
        pins = {**settings.pins, index: dataclasses.replace(entry, place=place)}
        return pin_refusal(index, symbols, dataclasses.replace(settings, pins=pins))

    first = refusal_at(pin.size_mm)
    if first is None:
        return pin.size_mm
    if first.reason not in FITTING or name not in (first.symbol, first.other):
        return None
    fits, fails = FIT_SMALLEST * pin.size_mm, pin.size_mm
    lowest = refusal_at(fits)
    if lowest is not None and lowest.reason == "too-small":  # start from the smallest size that prints
        fits = _smallest_printable(refusal_at, fits, fails)
        lowest = refusal_at(fits)
    if lowest is not None:
        return None
    while fails - fits > FIT_STEP_MM:
        middle = (fits + fails) / 2
        fits, fails = (middle, fails) if refusal_at(middle) is None else (fits, middle)
    rounded = round(math.floor(fits / FIT_STEP_MM) * FIT_STEP_MM, 6)  # 7.52, not 7.5200000000000005
    return rounded if refusal_at(rounded) is None else fits


def _smallest_printable(refusal_at: Callable[[float], PinRefusal | None], small_mm: float, large_mm: float) -> float:
    """The smallest size between ``small_mm`` (too small to print) and ``large_mm`` (not:
    refused for touching) that is not too small, to :data:`FIT_STEP_MM` above it (the ink
    grows with the size: one bisection finds where)."""
    while large_mm - small_mm > FIT_STEP_MM:
        middle = (small_mm + large_mm) / 2
        found = refusal_at(middle)
        too_small = found is not None and found.reason == "too-small"
        small_mm, large_mm = (middle, large_mm) if too_small else (small_mm, middle)
    return large_mm


__all__ = ["FIT_SMALLEST", "fitted_pin_size"]
