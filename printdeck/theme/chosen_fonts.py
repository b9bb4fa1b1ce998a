"""A font the theme chose (``text.font``, or a word's ``font``) that lacks letters of some
words: those words print in a fallback font (:mod:`printdeck.artwork.fonts`), so one card
mixes two typefaces, or every word prints in another font than the one chosen. Said once a
font, naming the letters and a few of the words."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from printdeck.model import SymbolSpec
from printdeck.theme.spec import Theme

__all__ = ["FontGapWarning", "warn_font_gaps"]

SHOWN_WORDS = 3
"""Words named in a warning; the rest are counted."""


class FontGapWarning(UserWarning):
    """Words the theme's chosen font cannot print whole, set in another font."""


def warn_font_gaps(theme: Theme, symbols: Sequence[SymbolSpec]) -> None:
    """Warn, once a chosen font, of the words of ``symbols`` (faces included) it lacks a
    letter of: the letters, the words (:data:`SHOWN_WORDS` of them), and that they print in
    another font.

    Warns:
        FontGapWarning: Keyed ``text.font`` or the word's own ``symbols.N.font``.
    """
    from printdeck.artwork import chosen_font_gap, describe_chars  # noqa: PLC0415 - fontTools only for words

    gaps: dict[tuple[str, object], tuple[list[str], list[str]]] = {}  # (key, face) -> words, letters
    for word in (face for s in symbols for face in s.all_faces if face.kind == "text"):
        gap = chosen_font_gap(word)
        if gap is not None:
            chosen, lacking = gap
            words, letters = gaps.setdefault((_font_key(theme, word), chosen), ([], []))
            words.append(word.text or word.name)
            letters.extend(c for c in lacking if c not in letters)
    for (key, face), (words, letters) in gaps.items():
        named = ", ".join(repr(w) for w in words[:SHOWN_WORDS])
        more = f" and {len(words) - SHOWN_WORDS} more" if len(words) > SHOWN_WORDS else ""
        chars = describe_chars(letters[:6]) + (" ..." if len(letters) > 6 else "")
        verb = "prints" if len(words) == 1 else "print"
        warnings.warn(
            f"{key}: {getattr(face, 'label', face)} has no {chars}, so {named}{more} {verb} in another font; "
            "choose a font that has every letter of the words, or leave it out",
            FontGapWarning,
            stacklevel=2,
        )


def _font_key(theme: Theme, word: SymbolSpec) -> str:
    """The key that chose ``word``'s font: its own entry's ``font`` (``symbols.3.font``,
    ``symbols.3.faces.1.font``), else ``text.font``."""
    parts = (word.theme_key or "").split(".")
    entry: object = None
    try:
        entry = theme.spec.symbols[int(parts[1])]
        if len(parts) >= 4 and parts[2] == "faces":
            entry = getattr(entry, "faces", [])[int(parts[3])]
    except (IndexError, ValueError, TypeError):
        entry = None
    return f"{word.theme_key}.font" if getattr(entry, "font", None) else "text.font"
