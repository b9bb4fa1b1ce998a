"""Embedded TrueType fonts: every piece of text in the PDF uses one of these.

ReportLab embeds a subset of each registered TTF (``/FontFile2``), so no stray
non-embedded Helvetica ends up in the file. Text symbols are measured by the
layout stage (Pillow ink box, ``printdeck.layout.artwork.text_metrics``) and drawn
so that ink box fills the placement's box.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from printdeck.errors import PrintdeckError
from printdeck.render.text import string_width

FONT_DIR = Path(reportlab.__file__).parent / "fonts"
SANS = "PrintdeckSans"
SANS_BOLD = "PrintdeckSans-Bold"
_BUNDLED = {SANS: FONT_DIR / "Vera.ttf", SANS_BOLD: FONT_DIR / "VeraBd.ttf"}


def register_bundled() -> None:
    """Register the bundled Bitstream Vera faces as ``PrintdeckSans`` (+ ``-Bold``)."""
    for name, path in _BUNDLED.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(path)))


def register_font(path: Path | None) -> str:
    """Register a theme's TTF and return its ReportLab name (bundled sans if ``None``).

    Args:
        path: A TrueType font file, or ``None`` for the bundled font.

    Raises:
        PrintdeckError: The file is missing or not a TrueType (glyf-outline) font.
    """
    register_bundled()
    if path is None:
        return SANS
    digest = hashlib.sha1(str(Path(path).resolve()).encode()).hexdigest()[:10]
    name = f"PrintdeckText-{digest}"
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except (OSError, TTFError) as exc:
            raise PrintdeckError(f"text.font: {path} cannot be embedded ({exc}); use a TrueType .ttf font") from exc
    return name


def font_file(path: Path | None) -> Path:
    """The font file behind ``path`` (the bundled Vera.ttf when ``None``)."""
    return Path(path) if path is not None else _BUNDLED[SANS]


def wrap_text(text: str, font: str, size_pt: float, width_pt: float) -> list[str]:
    """Greedy word wrap of ``text`` to lines no wider than ``width_pt`` (longer words stay whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and string_width(trial, font, size_pt) > width_pt:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines
