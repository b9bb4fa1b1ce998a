"""The PDF's embedded TrueType fonts: every piece of PDF text is set in one of these.

ReportLab embeds a subset of each registered TTF (``/FontFile2``), so no stray
non-embedded Helvetica ends up in the file. (Words on the cards are not PDF text:
they are drawn as their shaped glyph outlines, see :mod:`printdeck.render.forms`.)
"""

from __future__ import annotations

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from printdeck.artwork import default_face
from printdeck.render.text import SANS, SANS_BOLD

__all__ = ["SANS", "SANS_BOLD", "register_bundled"]


def register_bundled() -> None:
    """Register the default face and its bold (whose files :mod:`printdeck.artwork.fonts`
    finds) as ``PrintdeckSans`` and ``PrintdeckSans-Bold``.

    Raises:
        PrintdeckError: A font file is missing (a broken install).
    """
    for name, bold in ((SANS, False), (SANS_BOLD, True)):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(default_face(bold).path)))
