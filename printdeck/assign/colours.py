"""Colours of the words on each card: no two words of a card share a colour.

Every two symbols of a projective plane meet on some card, so no fixed colour per word
can keep a card's words apart; each card therefore sets its words in colours of the
palette, as close to each word's home colour (``SymbolSpec.color``) as distinctness
allows: an assignment problem per card (Kuhn 1955, "The Hungarian method"; SciPy's
``linear_sum_assignment``), with every colour offered once, then again at a higher cost
when the card has more words than the palette has colours (fewest repeats). A word
whose colour the theme sets (``color_fixed``) keeps it, and the others avoid it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from printdeck.model import CardLayout, SymbolSpec

CHANGE_COST = 1.0
"""Cost of setting a word in another colour than its home colour."""
REPEAT_COST = 100.0
"""Cost of each further use of one colour on a card (a repeat)."""


def card_word_colours(words: Sequence[SymbolSpec], palette: Sequence[str], taken: Sequence[str] = ()) -> list[str]:
    """Colours for one card's words, all different while the palette allows.

    Args:
        words: The card's words whose colour printdeck may choose.
        palette: The theme's colours (``text.colors``), ``#rrggbb``.
        taken: Colours of the card's words the theme fixed (avoided like a repeat).

    Returns:
        One colour per word, in order.
    """
    if not words:
        return []
    from scipy.optimize import linear_sum_assignment  # noqa: PLC0415 - only decks with words need it

    colours = list(dict.fromkeys(c.lower() for c in palette))
    copies = -(-(len(words) + len(taken)) // len(colours))
    slots = [(c, k + sum(1 for t in taken if t.lower() == c)) for k in range(copies) for c in colours]
    cost = np.array(
        [
            [REPEAT_COST * uses + (0.0 if colour == w.color.lower() else CHANGE_COST) for colour, uses in slots]
            for w in words
        ]
    )
    rows, cols = linear_sum_assignment(cost)
    out = [""] * len(words)
    for r, c in zip(rows, cols):
        out[r] = slots[c][0]
    return out


def colour_words(
    layouts: Sequence[CardLayout], symbols: Sequence[SymbolSpec], palette: Sequence[str]
) -> list[CardLayout]:
    """The layouts with ``Placement.color`` set for every word (None for pictures).

    Args:
        layouts: The laid-out cards.
        symbols: The deck's symbols (looked up by ``id``).
        palette: The theme's word colours.

    Returns:
        New layouts; nothing else changes.
    """
    table = {s.id: s for s in symbols}
    out = []
    for card in layouts:
        words = [table[p.symbol_id] for p in card.placements if table[p.symbol_id].kind == "text"]
        free = [w for w in words if not w.color_fixed]
        chosen = dict(
            zip((w.id for w in free), card_word_colours(free, palette, [w.color for w in words if w.color_fixed]))
        )
        placements = tuple(
            dataclasses.replace(
                p,
                color=chosen.get(p.symbol_id, table[p.symbol_id].color) if table[p.symbol_id].kind == "text" else None,
            )
            for p in card.placements
        )
        out.append(dataclasses.replace(card, placements=placements))
    return out
