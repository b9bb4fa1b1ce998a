"""printdeck.assign: which symbol goes to which point of the design, and word colours.

:func:`assign_symbols` chooses the deck's symbols and maps them to the design's
points (seeded); :func:`balance_symbols` relabels the points so no card gathers the
hard-to-pack artwork (by the symbols' silhouettes); :func:`deck_symbols` does both,
as the build does. :func:`colour_words` sets each card's words in colours of the
palette, no two alike on a card. :func:`face_deck` chooses which face of a symbol with
several faces each card shows.
"""

from printdeck.assign.balance import balance_points, balance_symbols, solidity
from printdeck.assign.colours import card_word_colours, colour_words
from printdeck.assign.face_choice import SPLIT_DECKS, FacedDeck, different_face_bound, face_deck
from printdeck.assign.points import assign_symbols, deck_symbols

__all__ = [
    "SPLIT_DECKS",
    "FacedDeck",
    "assign_symbols",
    "balance_points",
    "balance_symbols",
    "card_word_colours",
    "colour_words",
    "deck_symbols",
    "different_face_bound",
    "face_deck",
    "solidity",
]
