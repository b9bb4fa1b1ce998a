"""printdeck.design: which symbols go on which card (pure math).

Every two cards share exactly λ symbols (λ = 1: projective planes, λ = 2: biplanes).
:func:`make_design` picks the construction, trims, and refuses impossible requests
with a :class:`DesignRequestError` (:class:`NoDesign` when no design of that size
exists) that each caller words with its own names (:meth:`DesignRequestError.worded`).
:func:`verify_blocks` checks any deck independently of how it was built. The deck
sizes that exist (:func:`deck_points`, :func:`feasible_sizes`, :func:`largest_deck`)
are known here and nowhere else.
"""

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
from printdeck.design.verify import VerifyReport, incidence_matrix, verify_blocks, verify_flat

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
    "verify_flat",
]
