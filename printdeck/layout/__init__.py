"""printdeck.layout: dense, varied, overlap-free cards judged on real silhouettes.

Public API: :class:`LayoutSettings` (read from a theme) and :func:`layout_deck` (every
card of a deck, in card order). The symbols' silhouettes come from
:mod:`printdeck.artwork`.

Modules: :mod:`.packing` (a card's packing: first placement, optional growth rounds,
compaction, several cards' compactions in lockstep), the runners :mod:`.card` (cards:
retries, size check, measured record), :mod:`.size_plan` (each card's size slots, balanced across the deck),
:mod:`.workers` (cards on worker processes, identical to serial) and :mod:`.deck`
(the whole deck), :mod:`.settings`, :mod:`.pins` (``layout.pinned``: symbols fixed in
place on a card), :mod:`.pin_fit` (a touched-up symbol made to fit) and
:mod:`.stored_cards` (packed cards on disk). Names load on first
use (:mod:`printdeck.lazy`): a deck read whole from the cache never loads :mod:`.packing`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printdeck.lazy import attribute_loader

if TYPE_CHECKING:
    from printdeck.layout.card import pin_refusal
    from printdeck.layout.deck import layout_deck
    from printdeck.layout.meanwhile import Meanwhile, no_other_thread
    from printdeck.layout.pin_fit import fitted_pin_size
    from printdeck.layout.pins import (
        PinnedCard,
        PinnedSymbol,
        PinRefusal,
        PinWarning,
        applicable_pins,
        warn_pins_of_missing_cards,
        warn_rerolls_of_missing_cards,
    )
    from printdeck.layout.settings import LayoutSettings
    from printdeck.layout.size_plan import may_pack_too_small
    from printdeck.layout.workers import job_count

_WHERE = {
    "LayoutSettings": "printdeck.layout.settings",
    "Meanwhile": "printdeck.layout.meanwhile",
    "PinRefusal": "printdeck.layout.pins",
    "PinWarning": "printdeck.layout.pins",
    "PinnedCard": "printdeck.layout.pins",
    "PinnedSymbol": "printdeck.layout.pins",
    "applicable_pins": "printdeck.layout.pins",
    "warn_pins_of_missing_cards": "printdeck.layout.pins",
    "warn_rerolls_of_missing_cards": "printdeck.layout.pins",
    "job_count": "printdeck.layout.workers",
    "layout_deck": "printdeck.layout.deck",
    "may_pack_too_small": "printdeck.layout.size_plan",
    "no_other_thread": "printdeck.layout.meanwhile",
    "pin_refusal": "printdeck.layout.card",
    "fitted_pin_size": "printdeck.layout.pin_fit",
}

__all__ = [
    "LayoutSettings",
    "Meanwhile",
    "PinRefusal",
    "PinWarning",
    "PinnedCard",
    "PinnedSymbol",
    "applicable_pins",
    "fitted_pin_size",
    "job_count",
    "layout_deck",
    "may_pack_too_small",
    "no_other_thread",
    "pin_refusal",
    "warn_pins_of_missing_cards",
    "warn_rerolls_of_missing_cards",
]

__getattr__ = attribute_loader(__name__, _WHERE)
