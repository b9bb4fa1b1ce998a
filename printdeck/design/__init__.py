"""printdeck.design: which symbols go on which card (pure math).

Every two cards share exactly λ symbols (λ = 1: projective planes, λ = 2: biplanes).
:func:`make_design` picks the construction, trims, and refuses impossible requests
with a :class:`DesignRequestError` (:class:`NoDesign` when no design of that size
exists) that each caller words with its own names (:meth:`DesignRequestError.worded`).
:func:`verify_blocks` checks any deck independently of how it was built. The deck
sizes that exist (:func:`deck_points`, :func:`feasible_sizes`, :func:`largest_deck`)
are known here and nowhere else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printdeck.lazy import attribute_loader

if TYPE_CHECKING:
    from printdeck.design.deckio import DeckFile, design_json, format_design, read_deck
    from printdeck.design.gf import is_prime_power
    from printdeck.design.make import Design, make_design
    from printdeck.design.refusals import PYTHON_SPELLING, DesignRequestError, NoDesign, Spelling
    from printdeck.design.sizes import (
        BIPLANE_SIZES,
        MAX_SYMBOLS_PER_CARD,
        MIN_ORDER,
        MIN_SYMBOLS_PER_CARD,
        check_cards,
        check_design_exists,
        deck_points,
        design_known,
        feasible_sizes,
        largest_deck,
        next_larger_deck,
        resolve_symbols_per_card,
        sizes_for_symbols,
    )
    from printdeck.design.stats import StatsResult, deck_stats, plot_cdf
    from printdeck.design.verify import VerifyReport, incidence_matrix, verify_blocks, verify_decks, verify_flat

_WHERE = {
    "BIPLANE_SIZES": "printdeck.design.sizes",
    "DeckFile": "printdeck.design.deckio",
    "Design": "printdeck.design.make",
    "DesignRequestError": "printdeck.design.refusals",
    "MAX_SYMBOLS_PER_CARD": "printdeck.design.sizes",
    "MIN_ORDER": "printdeck.design.sizes",
    "MIN_SYMBOLS_PER_CARD": "printdeck.design.sizes",
    "NoDesign": "printdeck.design.refusals",
    "PYTHON_SPELLING": "printdeck.design.refusals",
    "Spelling": "printdeck.design.refusals",
    "StatsResult": "printdeck.design.stats",
    "VerifyReport": "printdeck.design.verify",
    "check_cards": "printdeck.design.sizes",
    "check_design_exists": "printdeck.design.sizes",
    "deck_points": "printdeck.design.sizes",
    "deck_stats": "printdeck.design.stats",
    "design_json": "printdeck.design.deckio",
    "design_known": "printdeck.design.sizes",
    "feasible_sizes": "printdeck.design.sizes",
    "format_design": "printdeck.design.deckio",
    "incidence_matrix": "printdeck.design.verify",
    "is_prime_power": "printdeck.design.gf",
    "largest_deck": "printdeck.design.sizes",
    "make_design": "printdeck.design.make",
    "next_larger_deck": "printdeck.design.sizes",
    "plot_cdf": "printdeck.design.stats",
    "read_deck": "printdeck.design.deckio",
    "resolve_symbols_per_card": "printdeck.design.sizes",
    "sizes_for_symbols": "printdeck.design.sizes",
    "verify_blocks": "printdeck.design.verify",
    "verify_decks": "printdeck.design.verify",
    "verify_flat": "printdeck.design.verify",
}

__all__ = [
    "BIPLANE_SIZES",
    "MAX_SYMBOLS_PER_CARD",
    "MIN_ORDER",
    "MIN_SYMBOLS_PER_CARD",
    "PYTHON_SPELLING",
    "DeckFile",
    "Design",
    "DesignRequestError",
    "NoDesign",
    "Spelling",
    "StatsResult",
    "VerifyReport",
    "check_cards",
    "check_design_exists",
    "deck_points",
    "deck_stats",
    "design_json",
    "design_known",
    "feasible_sizes",
    "format_design",
    "incidence_matrix",
    "is_prime_power",
    "largest_deck",
    "make_design",
    "next_larger_deck",
    "plot_cdf",
    "read_deck",
    "resolve_symbols_per_card",
    "sizes_for_symbols",
    "verify_blocks",
    "verify_decks",
    "verify_flat",
]

__getattr__ = attribute_loader(__name__, _WHERE)
