"""Lengths as users write them ("85mm", "3.15in") converted once to millimetres."""

from __future__ import annotations

import math
import re

from printdeck.choices import PaperName
from printdeck.errors import key_error

MM_PER_UNIT: dict[str, float] = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
PT_PER_MM = 72.0 / 25.4
PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    PaperName.A4: (210.0, 297.0),
    PaperName.LETTER: (215.9, 279.4),
    PaperName.A3: (297.0, 420.0),
}
"""Named paper sizes, portrait (width, height) in mm."""
_PAPER_WORDS = ", ".join(PaperName)

LENGTH_PATTERN = (
    r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*("
    + "|".join("".join(f"[{c.lower()}{c.upper()}]" for c in unit) for unit in MM_PER_UNIT)
    + r")\s*$"
)
"""A length with its unit in any case ("85mm", "3.15 IN"): group 1 the number, group 2 the
unit. Written without flags, so a JSON Schema (ECMA-262 regular expressions) can use it too."""
_LENGTH = re.compile(LENGTH_PATTERN)


def shown_under(value_mm: float, limit_mm: float) -> str:
    """``value_mm``, a size under ``limit_mm``, as a message shows it beside that limit: to
    one decimal, or to as many more (up to three) as it takes not to read as the limit
    itself ("only 2.96 mm; minimum 3 mm", never "only 3.0 mm").

    Examples:
        >>> shown_under(1.34, 3.0), shown_under(2.96, 3.0), shown_under(2.9999, 3.0)
        ('1.3', '2.96', '2.999')
    """
    for digits in (1, 2, 3):
        text = f"{value_mm:.{digits}f}"
        if float(text) < limit_mm:
            return text
    return f"{math.floor(value_mm * 1000.0) / 1000.0:.3f}"


class LengthError(ValueError):
    """A value that is not a length with its unit (``"85mm"``): a front end words it
    as a length (the theme's error carries the code ``not-a-length``)."""


def parse_length_mm(value: object) -> float:
    """Convert a length written with its unit to millimetres.

    Args:
        value: A string such as ``"85mm"``, ``"8.5 cm"``, ``"3.15in"`` or ``"12pt"``;
            the number 0 is also accepted (zero needs no unit).

    Returns:
        The length in mm (may be negative; range checks belong to the caller).

    Raises:
        LengthError: ``value`` is not a finite number followed by mm, cm, in or pt (a
            ``ValueError``).
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
        return 0.0
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if match:
            mm = float(match.group(1)) * MM_PER_UNIT[match.group(2).lower()]
            if math.isfinite(mm):
                return mm
    raise LengthError(f'expected a length such as "85mm" (units mm, cm, in, pt), got {value!r}')


def mm_to_pt(mm: float) -> float:
    """Millimetres to PostScript points (1 pt = 1/72 in)."""
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    """PostScript points (1/72 in) to millimetres."""
    return pt / PT_PER_MM


def format_mm(mm: float) -> str:
    """Write a length in mm the way a theme would, e.g. ``85mm`` or ``2.5mm``."""
    return f"{mm:g}mm"


def paper_size_mm(size: str | tuple[float, float]) -> tuple[float, float]:
    """Paper (width, height) in mm, portrait for the named sizes.

    Args:
        size: ``"a4"``, ``"letter"``, ``"a3"`` or a custom (width, height) in mm.

    Raises:
        PrintdeckError: Unknown name, or a custom size that is not two positive numbers.
    """
    if isinstance(size, str):
        key = size.strip().lower()
        if key not in PAPER_SIZES_MM:
            raise key_error("paper.size", f"unknown paper {size!r}; use {_PAPER_WORDS} or [width, height]")
        return PAPER_SIZES_MM[key]
    try:
        w, h = (float(v) for v in size)
    except (TypeError, ValueError) as exc:
        raise key_error("paper.size", f"expected {_PAPER_WORDS} or [width, height], got {size!r}") from exc
    if not (w > 0 and h > 0 and math.isfinite(w) and math.isfinite(h)):
        raise key_error("paper.size", f"width and height must be positive, got {size!r}")
    return (w, h)
