"""The colours printdeck chooses for a deck: its words' default colours (in colour and in
grey), and a class set's deck colours (in colour, and the greys of a grey class set)."""

from __future__ import annotations

WORD_PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#1a1a1a", "#882255", "#332288")
"""The default word colours: Okabe and Ito's (2008) colour-blind-safe set without its yellow
(too pale for words on white), plus Paul Tol's wine and indigo; distinct in print and for
protanopia, deuteranopia and tritanopia."""


DECK_PALETTE = (
    "#2b4c7e",
    "#f0b42d",
    "#87d2ff",
    "#960000",
    "#8769ff",
    "#e14b69",
    "#5a1e2d",
    "#b478a5",
    "#4b00ff",
    "#b4d296",
    "#ff0000",
    "#009678",
)
"""A class set's deck colours, deck A first (the default back's navy): each next colour was
chosen as far as possible (CIEDE2000) from those before it under normal vision and under
protanopia, deuteranopia and tritanopia as simulated by Machado, Oliveira and Fernandes
(2009); any first n stay pairwise distinct (tests/test_class_sets.py states by how much)."""
GREY_DECK_LIGHTNESS = (22.0, 85.0)
"""The darkest and lightest CIE L* of a grey class set's deck tones (see :func:`grey_deck_colours`)."""


def grey_deck_colours(copies: int) -> tuple[str, ...]:
    """A grey class set's deck colours (``paper.grayscale``), deck A first: ``copies`` greys
    evenly spaced in CIE L* over :data:`GREY_DECK_LIGHTNESS`, darkest first, so every two
    decks differ by ``63 / (copies - 1)`` L* or more (12.6 for six decks). :data:`DECK_PALETTE`'s
    colours are far apart in hue, not in lightness: some of them turn into the same grey.

    Raises:
        ValueError: ``copies`` is under 1.
    """
    if copies < 1:
        raise ValueError(f"copies: expected 1 or more, got {copies}")
    dark, light = GREY_DECK_LIGHTNESS
    steps = [dark + (light - dark) * k / max(1, copies - 1) for k in range(copies)]
    return tuple(_grey_hex(lightness) for lightness in steps)


def deck_colours(decks: int, grey: bool) -> tuple[str, ...]:
    """The colours of ``decks`` decks printed together (a class set's, or a split deck's A and
    B), deck A first: :data:`DECK_PALETTE`'s, or on a grey deck (``grey``: ``paper.grayscale``)
    :func:`grey_deck_colours`.

    Raises:
        ValueError: ``decks`` is under 1 or more than :data:`DECK_PALETTE` holds.
    """
    if not 1 <= decks <= len(DECK_PALETTE):
        raise ValueError(f"decks: expected 1 to {len(DECK_PALETTE)}, got {decks}")
    return grey_deck_colours(decks) if grey else DECK_PALETTE[:decks]


def _grey_hex(lightness: float) -> str:
    """The sRGB grey ``#vvvvvv`` of CIE ``lightness`` L* (D65)."""
    import numpy as np  # noqa: PLC0415 - only for a grey class set

    from printdeck.artwork import linear_to_srgb  # noqa: PLC0415

    luminance = ((lightness + 16.0) / 116.0) ** 3 if lightness > 8.0 else lightness / 903.3  # CIE L* to Y
    level = round(float(linear_to_srgb(np.asarray(luminance))) * 255)
    return f"#{level:02x}{level:02x}{level:02x}"


GREY_WORD_PALETTE = ("#000000", "#3d3d3d", "#666666", "#8c8c8c")
"""Word tones of a grey deck (``paper.grayscale``): black and three greys about 16 L* apart
(L* 0, 26, 43, 59), all dark enough to read on white; a card's words take different ones
while there are enough."""
