"""The PDF's embedded TrueType fonts: every piece of PDF text is set in one of these.

ReportLab embeds a subset of each registered TTF (``/FontFile2``), so no stray
non-embedded Helvetica ends up in the file. (Words on the cards are not PDF text:
they are drawn as their shaped glyph outlines, see :mod:`printdeck.render.forms`.)
"""

from __future__ import annotations

import re

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from printdeck.artwork import default_face
from printdeck.render.text import SANS, SANS_BOLD, string_width

__all__ = ["SANS", "SANS_BOLD", "register_bundled", "unbroken", "wrap_text"]

_BREAKS = re.compile(r"[^\S\u00a0\u2007\u202f]+")
"""Where a line may break: white space, but for the no-break spaces (U+00A0, U+2007, U+202F)."""


def register_bundled() -> None:
    """Register the default face and its bold (whose files :mod:`printdeck.artwork.fonts`
    finds) as ``PrintdeckSans`` and ``PrintdeckSans-Bold``.

    Raises:
        PrintdeckError: A font file is missing (a broken install).
    """
    for name, bold in ((SANS, False), (SANS_BOLD, True)):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(default_face(bold).path)))


def unbroken(phrase: str) -> str:
    """``phrase`` with no-break spaces between its words, so :func:`wrap_text` keeps it on
    one line ("Answer key" after a long title)."""
    return phrase.replace(" ", "\u00a0")


def wrap_text(text: str, font: str, size_pt: float, width_pt: float) -> list[str]:
    """Greedy word wrap of ``text`` to lines no wider than ``width_pt`` (longer words stay
    whole), breaking at white space but not at a no-break space (:func:`unbroken`); a
    no-break space ``font`` has no glyph for is measured and drawn as U+00A0
    (:func:`~printdeck.render.text.settable`, in ``string_width`` and ``draw_string``)."""
    lines: list[str] = []
    current = ""
    for word in filter(None, _BREAKS.split(text)):
        trial = f"{current} {word}".strip()
        if current and string_width(trial, font, size_pt) > width_pt:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines
