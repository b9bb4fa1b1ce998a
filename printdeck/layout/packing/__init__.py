"""Packing one card: where its symbols go, every gap kept, inside the safe disc.

:func:`pack_card` packs a :class:`PackInput` (silhouettes, relative target sizes,
limits) into a :class:`PackResult`, or raises :class:`PackFailure`. The method, in
:mod:`.packer`: a first placement (:mod:`.first_placement`), rounds of growth
(:mod:`.growth`), then compaction by linear programs (:mod:`.compaction`, with
:mod:`.contacts` and :mod:`.lp_solve`). :mod:`.card_state` holds the card being packed
and its exact validity tests, :mod:`.card_field` a card's distance bounds, and
:mod:`.size_ratio` the bounds on smallest over largest symbol, :mod:`.pinned` the symbols
a theme fixes in place (packed around, never moved).
"""

from printdeck.layout.packing.card_state import PackFailure, PackInput, PackResult
from printdeck.layout.packing.lp_solve import load_solver
from printdeck.layout.packing.packer import pack_card
from printdeck.layout.packing.pinned import PinConflict, pin_conflict
from printdeck.layout.packing.safe_zone import SafeZone

__all__ = [
    "PackFailure",
    "PackInput",
    "PackResult",
    "PinConflict",
    "SafeZone",
    "load_solver",
    "pack_card",
    "pin_conflict",
]
