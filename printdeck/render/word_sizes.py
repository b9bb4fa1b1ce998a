"""Words that print small on every card they are on: said before the deck is printed.

The layout holds every symbol to a least size by the square root of its ink area, which a
long word's thin strokes reach while its letters stay small: a 36-letter word printed 3 to
4 mm tall (its letters about 8 pt) on every card, hard to spot across a table, and nothing
said so. A word is measured by its box's height (``Placement.box_mm[1]``, the line of
text from its ascenders to its descenders, before the card turns it; a number's bar under
it left out, :func:`printdeck.artwork.letters_share`), at its largest.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from printdeck.artwork import drawing, letters_share
from printdeck.model import CardLayout, SymbolSpec
from printdeck.render.forms import by_id

SMALL_WORD_MM = 5.0
"""A word whose box is never taller than this on any card is warned about (about 11 pt
letters; the bundled word decks print every word 8 mm tall or more at its largest)."""
NAMED_WORDS = 6
"""The most words the warning names, then how many more."""


class SmallWordWarning(UserWarning):
    """A word prints small on every card it is on (still printed: a warning, not a refusal)."""


def check_word_heights(symbols: Sequence[SymbolSpec], layouts: Sequence[CardLayout]) -> dict[int, float]:
    """Each word's tallest printed height, warning about those under :data:`SMALL_WORD_MM`.

    Args:
        symbols: The deck's drawings (looked up by ``id``).
        layouts: The laid-out cards.

    Returns:
        ``{symbol_id: tallest box height, mm}`` for every word the cards show.

    Warns:
        SmallWordWarning: One warning naming the words never printed taller than
            :data:`SMALL_WORD_MM` (at most :data:`NAMED_WORDS`, then how many more).
    """
    table = by_id(symbols)
    tallest: dict[int, float] = {}
    share: dict[int, float] = {}  # of the box, the letters' (a number's bar under it is not a letter)
    for card in layouts:
        for p in card.placements:
            symbol = table[p.symbol_id]
            if symbol.kind == "text":
                if p.symbol_id not in share:
                    share[p.symbol_id] = letters_share(drawing(symbol).word, symbol.text or symbol.name)
                height = p.box_mm[1] * share[p.symbol_id]
                tallest[p.symbol_id] = max(tallest.get(p.symbol_id, 0.0), height)
    small = sorted((height, sid) for sid, height in tallest.items() if height < SMALL_WORD_MM)
    if small:
        named = ", ".join(
            f"{table[sid].text or table[sid].name!r} ({height:.1f} mm)" for height, sid in small[:NAMED_WORDS]
        )
        more = f" and {len(small) - NAMED_WORDS} more" if len(small) > NAMED_WORDS else ""
        warnings.warn(
            f"words that print at most {SMALL_WORD_MM:g} mm tall on every card, hard to spot across a table: "
            f"{named}{more}; shorten them, or give fewer symbols a card or larger cards",
            SmallWordWarning,
            stacklevel=2,
        )
    return tallest
