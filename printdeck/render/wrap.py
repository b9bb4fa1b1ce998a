"""Lines of PDF text: a greedy word wrap that breaks at white space, never at a no-break
space, and never puts a separator standing alone between two parts ("Times · Tablas",
"Family – 2026") at the start of a line: it stays at the end of the line before.

Kept apart from :mod:`printdeck.render.pdf_fonts`, whose code is in every vector form's
key: how page text wraps does not change how a symbol is drawn.
"""

from __future__ import annotations

import re

from printdeck.render.text import string_width

__all__ = ["SEPARATORS", "unbroken", "wrap_text"]

SEPARATORS = frozenset("·•‧∙⋅・|/-–—")
"""Marks that stand alone between a title's parts ("A · B", "A – B"): a line never starts
with one (:func:`wrap_text`), and a card back's title breaks in its place
(:mod:`printdeck.render.back_title`)."""

_BREAKS = re.compile(r"[^\S\u00a0\u2007\u202f]+")
"""Where a line may break: white space, but for the no-break spaces (U+00A0, U+2007, U+202F)."""


def unbroken(phrase: str) -> str:
    """``phrase`` with no-break spaces between its words, so :func:`wrap_text` keeps it on
    one line ("Answer key" after a long title)."""
    return phrase.replace(" ", "\u00a0")


def wrap_text(text: str, font: str, size_pt: float, width_pt: float) -> list[str]:
    """Greedy word wrap of ``text`` to lines no wider than ``width_pt`` (longer words stay
    whole), breaking at white space but not at a no-break space (:func:`unbroken`) nor
    before a separator standing alone (:data:`SEPARATORS`: "Times ·" ends a line, "· Tablas"
    never starts one); a no-break space ``font`` has no glyph for is measured and drawn as
    U+00A0 (:func:`~printdeck.render.text.settable`, in ``string_width`` and ``draw_string``).

    Args:
        text: The text; its runs of white space become one space.
        font: A registered font's name.
        size_pt: Font size, pt.
        width_pt: Longest line, pt.

    Returns:
        The lines, none empty (none for blank ``text``).
    """
    lines: list[str] = []
    current = ""
    for word in _units(text):
        trial = f"{current} {word}".strip()
        if current and string_width(trial, font, size_pt) > width_pt:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def _units(text: str) -> list[str]:
    """The words of ``text``, each lone separator joined to the word before it by a space."""
    units: list[str] = []
    for word in filter(None, _BREAKS.split(text)):
        if units and word in SEPARATORS:
            units[-1] = f"{units[-1]} {word}"
        else:
            units.append(word)
    return units
