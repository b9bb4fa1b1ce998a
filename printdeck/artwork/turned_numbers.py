"""Numbers that read as another number upside down, underlined as dice, pool balls and
playing cards underline them.

A round card has no top, and children round a table see each card every way up: a
times-tables card's 6 reads as 9 from across the table, 16 as 91, 18 as 81. Keeping words
near upright on their card (the layout's limit) does not help the player facing the other
way. A word made only of the digits that turn into digits (0, 1, 6, 8, 9; in Arabic-Indic
digits ٠ ١ ٥ ٧ ٨, where ٧ and ٨ are a V and a Λ; in Eastern Arabic-Indic ۰ ۱ ۷ ۸), which
turned half round reads as another number, gets a bar under it: part of its drawing, so its
silhouette, the PDF, the PNGs, the preview and the legend all show it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from printdeck.artwork.shaping import ShapedWord

__all__ = ["UNDERLINE_EM", "UNDERLINE_GAP_EM", "letters_share", "reads_turned", "underlined"]

TURNED_DIGITS = dict(zip("01689٠١٥٧٨۰۱۷۸", "01986٠١٥٨٧۰۱۸۷", strict=True))
"""Each digit that turned half round (180°) reads as a digit, and the digit it reads as:
Western, Arabic-Indic (٠ a dot, ١ a stroke, ٥ a ring; ٧ a V, ٨ a Λ) and Eastern
Arabic-Indic (Persian and Urdu: their ۵ is not a ring)."""
ZEROS = frozenset("0\u0660\u06f0")
UNDERLINE_EM = 0.08
"""The bar's thickness, em: a little bolder than a font's underline, to be seen at a glance."""
UNDERLINE_GAP_EM = 0.08
"""Clear space between the word's lowest ink and the bar, em (so the bar never touches a
glyph: a glyph's outline and the bar's would cancel where they overlapped, filled non-zero)."""


def reads_turned(text: str) -> str | None:
    """The number ``text`` reads as turned half round, or None when it reads as nothing else.

    None when ``text`` holds anything but the digits of :data:`TURNED_DIGITS` (spaces round
    it aside), reads the same turned ("69", "88", "101"), or turned starts with a 0, which no
    one reads as a number ("10" turned is "01").

    Examples:
        >>> reads_turned("6"), reads_turned("18"), reads_turned("106")
        ('9', '81', '901')
        >>> reads_turned("69"), reads_turned("10"), reads_turned("12"), reads_turned("6.")
        (None, None, None, None)
        >>> reads_turned("٧"), reads_turned("١٨"), reads_turned("٧٨"), reads_turned("٧٠")
        ('٨', '٧١', None, None)
    """
    word = text.strip()
    if not word or any(c not in TURNED_DIGITS for c in word):
        return None
    turned = "".join(TURNED_DIGITS[c] for c in reversed(word))
    if turned == word or (len(turned) > 1 and turned[0] in ZEROS):
        return None
    return turned


def letters_share(word: ShapedWord | None, text: str) -> float:
    """The share of a word's box height its letters take (1, or less for a number
    :func:`underlined`: its bar and the gap above it take the rest; 1 for no word)."""
    if word is None or reads_turned(text) is None:
        return 1.0
    height = word.ink_em[3] - word.ink_em[1]
    return (height - UNDERLINE_EM - UNDERLINE_GAP_EM) / height


def underlined(word: ShapedWord) -> ShapedWord:
    """``word`` with a bar under its ink (:data:`UNDERLINE_EM` thick, :data:`UNDERLINE_GAP_EM`
    below its lowest point, as wide as its ink) added to its outlines and bounds, em."""
    x0, y0, x1, y1 = word.ink_em
    top = y0 - UNDERLINE_GAP_EM
    bottom = top - UNDERLINE_EM
    bar = (
        ("moveTo", ((x0, bottom),)),
        ("lineTo", ((x1, bottom),)),
        ("lineTo", ((x1, top),)),
        ("lineTo", ((x0, top),)),
        ("closePath", ()),
    )
    return replace(word, ops=word.ops + bar, ink_em=(x0, bottom, x1, y1))
