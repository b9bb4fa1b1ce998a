"""Packing one card: where its symbols go, every gap kept, inside the safe disc.

:func:`pack_card` packs a :class:`PackInput` (silhouettes, relative target sizes,
limits) into a :class:`PackResult`, or raises :class:`PackFailure`; :func:`pack_cards`
packs several cards with the same results, their compactions in lockstep
(:mod:`.lockstep`, on :mod:`.whole_batch`'s arrays). The method, in
:mod:`.packer`: a first placement (:mod:`.first_placement`), optional rounds of
growth (:mod:`.growth`), then compaction by linear programs (:mod:`.compaction`, with
:mod:`.contacts` and :mod:`.lp_solve`). :mod:`.card_state` holds the card being packed
and its exact validity tests, :mod:`.card_field` a card's distance bounds, and
:mod:`.size_ratio` the bounds on smallest over largest symbol, :mod:`.pinned` the symbols
a theme fixes in place (packed around, never moved).

Names load on first use (:mod:`printdeck.lazy`): a deck read whole from the layout
cache never loads the packer, its exact checks or HiGHS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printdeck.lazy import attribute_loader

if TYPE_CHECKING:
    from printdeck.layout.packing.card_state import PackFailure, PackInput, PackResult
    from printdeck.layout.packing.lp_solve import load_solver
    from printdeck.layout.packing.packer import pack_card, pack_cards
    from printdeck.layout.packing.pinned import PinConflict, pin_conflict
    from printdeck.layout.packing.safe_zone import SafeZone
    from printdeck.layout.packing.symbol_geometry import derive_all
    from printdeck.layout.packing.whole_card import every_pair

_WHERE = {
    "PackFailure": "printdeck.layout.packing.card_state",
    "PackInput": "printdeck.layout.packing.card_state",
    "PackResult": "printdeck.layout.packing.card_state",
    "PinConflict": "printdeck.layout.packing.pinned",
    "SafeZone": "printdeck.layout.packing.safe_zone",
    "derive_all": "printdeck.layout.packing.symbol_geometry",
    "every_pair": "printdeck.layout.packing.whole_card",
    "load_solver": "printdeck.layout.packing.lp_solve",
    "pack_card": "printdeck.layout.packing.packer",
    "pack_cards": "printdeck.layout.packing.packer",
    "pin_conflict": "printdeck.layout.packing.pinned",
}

__all__ = [
    "PackFailure",
    "PackInput",
    "PackResult",
    "PinConflict",
    "SafeZone",
    "derive_all",
    "every_pair",
    "load_solver",
    "pack_card",
    "pack_cards",
    "pin_conflict",
]

__getattr__ = attribute_loader(__name__, _WHERE)
